/**
 * The back office's counter-sale form, parsed at the edge: an amount in euros within the shop's limits, the
 * months it is valid, and an optional name for the card. Messages are keys of `giftCards.admin.errors.*`.
 */
import { z } from "zod";
import { parseEuroCents } from "#server/admin/product-admin.inputs.ts";
import { controlChars } from "#server/accounts/text-rules.ts";
import { defaultValidityMonths, giftCardLimits } from "./gift-card";

const errorKey = (field: string) => `giftCards.admin.errors.${field}`;

const CounterSaleFields = z.object({
  amount: z.string({ error: errorKey("amount") }).transform((raw, ctx) => {
    const parsed = parseEuroCents(raw);
    if (!parsed.ok || parsed.cents < giftCardLimits.minCents || parsed.cents > giftCardLimits.maxCents) {
      ctx.addIssue({ code: "custom", message: errorKey("amount") });
      return z.NEVER;
    }
    return parsed.cents;
  }),
  validityMonths: z.preprocess(
    (value) => (value === "" || value === undefined ? String(defaultValidityMonths) : value),
    z.coerce
      .number({ error: errorKey("validityMonths") })
      .int(errorKey("validityMonths"))
      .min(12, errorKey("validityMonths"))
      .max(120, errorKey("validityMonths")),
  ),
  recipientName: z.preprocess(
    (value) => (typeof value === "string" ? value : ""),
    z
      .string()
      .trim()
      .max(100, errorKey("recipientName"))
      .refine((value) => !controlChars.test(value), errorKey("recipientName")),
  ),
});

export type CounterSaleInput = { amountCents: number; validityMonths: number; recipientName: string };

export function parseCounterSaleForm(
  form: FormData,
): { ok: true; input: CounterSaleInput } | { ok: false; errors: Partial<Record<keyof CounterSaleInput | "amount", string>> } {
  const parsed = CounterSaleFields.safeParse({
    amount: form.get("amount") ?? "",
    validityMonths: form.get("validityMonths") ?? "",
    recipientName: form.get("recipientName") ?? "",
  });
  if (parsed.success)
    return {
      ok: true,
      input: { amountCents: parsed.data.amount, validityMonths: parsed.data.validityMonths, recipientName: parsed.data.recipientName },
    };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { ok: false, errors };
}
