/**
 * Where a form may send the browser back to (`redirectTo` of no-JavaScript posts, the page after login,
 * the Referer of the currency switch): a path of this shop only. No other site, no protocol-relative
 * "//host", no backslash that a browser reads as a slash, no control character that could split a header.
 * One rule for every such field.
 */
const base = "http://shop.invalid";

export function sameSitePath(value: unknown): string | null {
  if (typeof value !== "string" || !isPlainPath(value)) return null;
  const url = URL.parse(value, base);
  if (!url || url.origin !== base) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // URL parsing resolves dot segments ("/.//evil.example" becomes "//evil.example"): the answer itself
  // must pass the same test, and parse to itself, or a browser could read it as another host.
  if (!isPlainPath(path) || URL.parse(path, base)?.href !== url.href) return null;
  return path;
}

/** Starts with exactly one slash; no backslash (raw or encoded), control character or percent-encoded slash up front. */
function isPlainPath(value: string) {
  if (value.length === 0 || value.length > 2000) return false;
  if (!value.startsWith("/") || value.startsWith("//") || /^\/%2f/i.test(value)) return false;
  if (value.includes("\\") || /%5c/i.test(value)) return false;
  return !/[\u0000-\u001F\u007F]|%(?:[01][0-9a-f]|7f)/i.test(value);
}
