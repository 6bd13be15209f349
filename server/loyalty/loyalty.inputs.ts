/**
 * What the counter's forms send (back office, API), parsed once: a till receipt's number and amount, and
 * points to redeem. Messages are keys of `loyalty.errors` and `admin.errors`.
 */
import { z } from "zod";
import { parseEuroCents } from "#server/admin/product-admin.inputs.ts";

const cardId = z.coerce.number({ error: "loyalty.errors.card-not-found" }).int().positive().max(2_147_483_647);

export const CounterEarnInput = z.object({
  cardId,
  receiptNumber: z
    .string({ error: "loyalty.errors.receiptNumber" })
    .trim()
    .regex(/^[A-Za-z0-9/-]{1,40}$/, "loyalty.errors.receiptNumber")
    .transform((value) => value.toUpperCase()),
  /** The receipt's total as typed ("24,90"), or whole cents from the API. */
  amount: z.union([z.string(), z.number()]).transform((value, ctx) => {
    if (typeof value === "number") {
      if (Number.isSafeInteger(value) && value > 0 && value <= 10_000_000) return value;
      ctx.addIssue({ code: "custom", message: "loyalty.errors.amount" });
      return z.NEVER;
    }
    const parsed = parseEuroCents(value);
    if (parsed.ok && parsed.cents > 0) return parsed.cents;
    ctx.addIssue({ code: "custom", message: "loyalty.errors.amount" });
    return z.NEVER;
  }),
});
export type CounterEarnInput = z.infer<typeof CounterEarnInput>;

export const CounterRedeemInput = z.object({
  cardId,
  points: z.coerce
    .number({ error: "loyalty.errors.not-a-step" })
    .int("loyalty.errors.not-a-step")
    .positive("loyalty.errors.not-a-step")
    .max(10_000_000),
  note: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((value) => value || null),
});
export type CounterRedeemInput = z.infer<typeof CounterRedeemInput>;

/** The first problem per field, as message keys. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message.includes(".") ? issue.message : "admin.errors.invalid";
  return errors;
}
