/**
 * A request refused at the server's edge (server/http/request-edge.ts): a form that is not a form,
 * control characters, JSON nested too deep, a body or an address too large. The texts come translated with the refusal, so the error
 * page shows them whichever messages the browser has loaded.
 */
export type EdgeRefusal =
  "not-found" | "bad-request" | "too-deeply-nested" | "unsupported-media-type" | "payload-too-large" | "headers-too-large" | "method-not-allowed";

export type EdgeRefusalData = { edgeRefusal: EdgeRefusal; title: string; message: string };

export function isEdgeRefusalData(value: unknown): value is EdgeRefusalData {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Partial<EdgeRefusalData>).edgeRefusal === "string" &&
    typeof (value as Partial<EdgeRefusalData>).title === "string" &&
    typeof (value as Partial<EdgeRefusalData>).message === "string"
  );
}
