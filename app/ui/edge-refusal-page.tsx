import type { EdgeRefusalData } from "#common/edge-refusal.ts";

/** A request refused at the server's edge (a form that is not a form, control characters, too large): its texts came translated with it. */
export function EdgeRefusalPage({ refusal }: { refusal: EdgeRefusalData }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">{refusal.title}</h1>
      <p className="mt-4">{refusal.message}</p>
    </div>
  );
}
