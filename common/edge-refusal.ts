/**
 * A request refused at the server's edge (server/http/request-edge.ts): a form that is not a form,
 * control characters, a body too large. The texts come translated with the refusal, so the error
 * page shows them whichever messages the browser has loaded.
 */
export type EdgeRefusal = "not-found" | "bad-request" | "unsupported-media-type" | "payload-too-large" | "method-not-allowed";

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
