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

/** Two slashes in a row, a backslash, a dot segment (plain or encoded), or no leading slash at all. */
const untidyPath = /\/\/|\\|(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)|^[^/]/i;

/**
 * A request's target as the shop may write it back into its pages (the language links, `redirectTo`, forms'
 * `action`): the path as the URL parser reads it (dot segments resolved, a backslash read as a slash), runs of
 * slashes made one, the query kept. Null when the target is already so. "//evil.example/x" names a path of
 * this shop, but written back into an href it is another site.
 */
export function tidyRequestTarget(target: string): string | null {
  const queryAt = target.indexOf("?");
  const rawPath = queryAt < 0 ? target : target.slice(0, queryAt);
  if (!untidyPath.test(rawPath)) return null;
  // Read after the shop's own origin, so "//evil.example/x" stays the path it was sent as; an absolute URL as itself.
  const url = rawPath.startsWith("/") ? URL.parse(`${base}${rawPath}`) : URL.parse(rawPath);
  const path = url?.pathname.startsWith("/") ? url.pathname.replace(/\/{2,}/g, "/") : "/";
  return `${path}${queryAt < 0 ? "" : target.slice(queryAt)}`;
}
