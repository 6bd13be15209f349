import { z } from "zod";
import { isValidIban, normaliseIban } from "#common/iban.ts";

/**
 * The withdrawal form (both steps send the same fields): the name, the units per order line
 * ("qty:{orderLineId}"), the IBAN when the order was not paid by card, and the form's own key; a line
 * swapped rather than refunded names its replacement variant ("swap:{orderLineId}" = variant id, see
 * docs/decisions/0105-exchanges.md).
 * Error messages are keys of messages/*.json (afterSales.errors.*).
 */
export const WithdrawalForm = z.object({
  submissionKey: z.string().trim().min(16).max(100),
  name: z.string().trim().min(2, { error: "afterSales.errors.name" }).max(120, { error: "afterSales.errors.name" }),
  iban: z
    .string()
    .trim()
    .max(50, { error: "afterSales.errors.iban" })
    .optional()
    .transform((value) => (value ? normaliseIban(value) : null))
    .refine((value) => value === null || isValidIban(value), { error: "afterSales.errors.iban" }),
  lines: z.array(z.object({ orderLineId: z.uuid(), quantity: z.number().int().min(0).max(999) }), { error: "afterSales.errors.quantity" }).max(200),
  exchanges: z
    .array(z.object({ orderLineId: z.uuid(), variantId: z.number().int().positive().max(2_147_483_647) }))
    .max(200)
    .optional(),
});
export type WithdrawalForm = z.infer<typeof WithdrawalForm>;

/** The form's fields as posted: the quantities come as "qty:{orderLineId}" = "2". */
export function parseWithdrawalForm(
  fields: Record<string, string>,
): { ok: true; input: WithdrawalForm } | { ok: false; errors: Record<string, string> } {
  const lines: { orderLineId: string; quantity: number }[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (!name.startsWith("qty:")) continue;
    const quantity = /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : value.trim() === "" ? 0 : Number.NaN;
    lines.push({ orderLineId: name.slice(4), quantity });
  }
  // "swap:{line}" empty or "refund": the line's units are refunded.
  const exchanges = Object.entries(fields)
    .filter(([name, value]) => name.startsWith("swap:") && value.trim() !== "" && value.trim() !== "refund")
    .map(([name, value]) => ({ orderLineId: name.slice(5), variantId: /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : Number.NaN }));
  const parsed = WithdrawalForm.safeParse({ submissionKey: fields.submissionKey, name: fields.name, iban: fields.iban, lines, exchanges });
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    if (issue.path[0] === "exchanges") {
      errors.lines ??= "exchanges.errors.exchange-not-offered";
      continue;
    }
    const field = issue.path[0] === "lines" ? "lines" : String(issue.path[0] ?? "form");
    errors[field] ??= issue.message.startsWith("afterSales.")
      ? issue.message
      : field === "lines"
        ? "afterSales.errors.quantity"
        : "afterSales.errors.form";
  }
  return { ok: false, errors };
}
