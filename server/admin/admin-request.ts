/**
 * Reading a back-office form. Uploads are capped: the body is read up to `maxBytes` (the rest is
 * drained and dropped, so the browser still gets the page with the message); FormData is only
 * built when the body fits.
 */
const drainLimitBytes = 64 * 1024 * 1024;

export async function readAdminForm(request: Request, maxBytes: number): Promise<{ ok: true; form: FormData } | { ok: false; error: "too-large" }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > drainLimitBytes) return { ok: false, error: "too-large" };
  if (!request.body) return { ok: true, form: new FormData() };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > drainLimitBytes) {
      await reader.cancel();
      return { ok: false, error: "too-large" };
    }
    if (size <= maxBytes) chunks.push(value);
  }
  if (size > maxBytes) return { ok: false, error: "too-large" };
  const body = new Blob(chunks as BlobPart[]);
  const form = await new Response(body, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
  return { ok: true, form };
}

/** A whole positive id from a route parameter; null otherwise (the page answers 404). */
export function parseAdminId(value: string | undefined): number | null {
  if (!value || !/^\d{1,9}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}
