import type { HeadersFunction } from "react-router";

/**
 * A page whose action may answer 429 exports this as `headers`: React Router keeps an action's own
 * headers on the page only through that export, and a throttled client must learn when to retry.
 */
export const keepRetryAfter: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
