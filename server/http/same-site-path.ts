/**
 * Where a form may send the browser back to (`redirectTo` of no-JavaScript posts, the page after login):
 * a path of this shop only. No other site, no protocol-relative "//host", no backslash that a browser
 * reads as a slash, no control character that could split a header. One rule for every such field.
 */
export function sameSitePath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\") || /[\u0000-\u001F\u007F]/.test(value)) return null;
  const url = URL.parse(value, "http://shop.invalid");
  if (!url || url.origin !== "http://shop.invalid") return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
