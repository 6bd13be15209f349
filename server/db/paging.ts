/**
 * One page of a list `total` rows long, for the back office's tables: the requested page kept within
 * 1..pageCount (an empty list has one, empty, page; a page past the end shows the last) and its offset.
 */
export function pageOf(requested: number | undefined, total: number, pageSize: number): { page: number; pageCount: number; offset: number } {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(pageCount, Math.max(1, Math.trunc(requested ?? 1) || 1));
  return { page, pageCount, offset: (page - 1) * pageSize };
}
