/**
 * What the /wishlist and /compare actions accept: the forms of app/ui/wishlist-button.tsx and of the
 * two pages (intent add | remove | clear, productId), and the background sync of a signed-in
 * customer's browser lists (intent sync, ids as "24.25.30"). A refusal is the code "invalid-request".
 */
import { z } from "zod";
import { normaliseIds, savedListLimits } from "#common/saved-items.ts";
import { sameSitePath } from "#server/http/same-site-path.ts";

const ProductId = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number)
  .pipe(z.number().max(2_147_483_647));

/** "24.25.30" (or comma-separated): unknown entries dropped, duplicates once, at most the list's limit. */
const IdList = (limit: number) =>
  z
    .string()
    .max(2000)
    .default("")
    .transform((value) => normaliseIds(value.split(/[.,]/).filter(Boolean), limit));

export const SavedItemsActionInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), productId: ProductId }),
  z.object({ intent: z.literal("remove"), productId: ProductId }),
  z.object({ intent: z.literal("clear") }),
  z.object({ intent: z.literal("sync"), wishlist: IdList(savedListLimits.wishlist), compare: IdList(savedListLimits.compare) }),
]);
export type SavedItemsActionInput = z.infer<typeof SavedItemsActionInput>;

export type ParsedSavedItemsForm =
  { ok: true; input: SavedItemsActionInput; redirectTo: string | null } | { ok: false; error: "invalid-request"; redirectTo: string | null };

/** Reads the form once; a field sent twice or a file is a malformed request. */
export function parseSavedItemsForm(form: FormData | URLSearchParams): ParsedSavedItemsForm {
  const redirectTo = sameSitePath(form.get("redirectTo"));
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string" || Object.hasOwn(fields, name)) return { ok: false, error: "invalid-request", redirectTo };
    fields[name] = value;
  }
  const parsed = SavedItemsActionInput.safeParse(fields);
  return parsed.success ? { ok: true, input: parsed.data, redirectTo } : { ok: false, error: "invalid-request", redirectTo };
}
