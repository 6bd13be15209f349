/**
 * The forms of voucher lines, parsed at the edge: buying a gift card (amount, recipient, message, day or "I'll
 * print it"), contributing to a gift list's fund, and the owner's fund form. Messages are keys of
 * `vouchers.errors.*`; amounts, days and funds are checked again by the service against the shop's settings.
 */
import { z } from "zod";
import { parseEuroCents } from "#server/admin/product-admin.inputs.ts";
import { controlChars } from "#server/accounts/text-rules.ts";

const errorKey = (field: string) => `vouchers.errors.${field}`;

/** Field -> message key of its first problem. */
export type VoucherFieldErrors = Partial<Record<string, string>>;

const markup = /[<>]/;

function text(field: string, max: number, { required, multiline = false }: { required: boolean; multiline?: boolean }) {
  const base = z
    .preprocess((value) => (typeof value === "string" ? value : ""), z.string())
    .transform((value) => (multiline ? value.replace(/\r\n?/g, "\n").trim() : value.replace(/\s+/g, " ").trim()))
    .refine((value) => value.length <= max, errorKey(`${field}TooLong`))
    .refine((value) => !controlChars.test(value.replace(/\n/g, "")) && !markup.test(value), errorKey("invalidCharacters"));
  return required ? base.refine((value) => value.length > 0, errorKey(`${field}Required`)) : base;
}

/** Euros as typed ("50", "50,00", "50.5") into cents; the range is the service's (settings). */
const euros = (field: string) =>
  z.preprocess(
    (value) => (typeof value === "string" ? value : ""),
    z.string().transform((raw, ctx) => {
      const parsed = parseEuroCents(raw);
      if (!parsed.ok || parsed.cents <= 0) {
        ctx.addIssue({ code: "custom", message: errorKey(field) });
        return z.NEVER;
      }
      return parsed.cents;
    }),
  );

const isoDay = z
  .string()
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, errorKey("deliverOn"))
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, errorKey("deliverOn"));

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, errorKey("recipientEmail"))
  .pipe(z.email(errorKey("recipientEmail")));

const rawString = z.preprocess((value) => (typeof value === "string" ? value : ""), z.string());

/** `schema`'s value for `field`, or its first problem added under that field (so every field is checked in one round). */
function checked<T>(schema: z.ZodType<T>, value: unknown, field: string, ctx: z.RefinementCtx): T | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: "custom", path: [field], message: parsed.error.issues[0]?.message ?? errorKey(field) });
  return undefined;
}

// Every field arrives as a string and is checked in the one transform: zod skips an object's transform once a
// field fails, which would report the amount, e-mail and day only after the names were fixed.
const GiftCardFields = z
  .object({
    // A preset button sends its cents; "other" sends the free amount typed in euros.
    preset: rawString,
    amount: rawString,
    senderName: rawString,
    recipientName: rawString,
    delivery: rawString,
    recipientEmail: rawString,
    deliverOn: rawString,
    message: rawString,
  })
  .transform((value, ctx) => {
    const senderName = checked(text("senderName", 100, { required: true }), value.senderName, "senderName", ctx);
    const recipientName = checked(text("recipientName", 100, { required: true }), value.recipientName, "recipientName", ctx);
    const delivery = checked(z.enum(["email", "print"], { error: errorKey("delivery") }), value.delivery, "delivery", ctx);
    const presetCents = /^[0-9]{1,6}$/.test(value.preset) ? Number(value.preset) : null;
    const typed = presetCents === null ? checked(euros("amount"), value.amount, "amount", ctx) : undefined;
    let recipientEmail: string | null = null;
    let deliverOn: string | null = null;
    if (delivery === "email") {
      recipientEmail = checked(email, value.recipientEmail, "recipientEmail", ctx) ?? null;
      deliverOn = checked(isoDay, value.deliverOn, "deliverOn", ctx) ?? null;
    }
    const message = checked(text("message", 500, { required: false, multiline: true }), value.message, "message", ctx);
    return {
      amountCents: presetCents ?? typed ?? 0,
      senderName: senderName ?? "",
      recipientName: recipientName ?? "",
      recipientEmail,
      deliverOn,
      message: message ?? "",
    };
  });

export type BuyGiftCardInput = z.infer<typeof GiftCardFields>;

/** The gift card form of /carta-regalo/acquista (and the cart API's JSON). */
export const BuyGiftCardInput = GiftCardFields;

const FundContributionFields = z.object({
  fundId: z.coerce
    .number({ error: errorKey("fund-not-found") })
    .int(errorKey("fund-not-found"))
    .positive(errorKey("fund-not-found")),
  amount: euros("contribution"),
  senderName: text("giverName", 100, { required: true }),
  message: text("message", 500, { required: false, multiline: true }),
});

export type FundContributionInput = { fundId: number; amountCents: number; senderName: string; message: string };

export const FundContributionInput = FundContributionFields.transform((value): FundContributionInput => ({
  fundId: value.fundId,
  amountCents: value.amount,
  senderName: value.senderName,
  message: value.message,
}));

/** The owner's fund form on her list's page: a title, an optional description and an optional target in euros. */
export const GiftListFundInput = z
  .object({
    title: text("fundTitle", 120, { required: true }),
    description: text("fundDescription", 1000, { required: false, multiline: true }),
    // Checked on its own (not in an object transform), so its problem comes with the title's.
    target: z.preprocess(
      (value) => (typeof value === "string" ? value.trim() : ""),
      z.string().transform((raw, ctx) => {
        if (raw === "") return null;
        const parsed = parseEuroCents(raw);
        if (!parsed.ok || parsed.cents < 500 || parsed.cents > 10_000_000) {
          ctx.addIssue({ code: "custom", message: errorKey("fundTarget") });
          return z.NEVER;
        }
        return parsed.cents;
      }),
    ),
  })
  .transform((value) => ({ title: value.title, description: value.description, targetCents: value.target }));

export type GiftListFundInput = z.infer<typeof GiftListFundInput>;

/** Parses a form or JSON object; errors are field -> message key. */
export function parseVoucherForm<T>(
  schema: z.ZodType<T>,
  raw: FormData | Record<string, unknown>,
): { ok: true; input: T } | { ok: false; errors: VoucherFieldErrors } {
  const values = raw instanceof FormData ? Object.fromEntries([...raw.entries()].filter(([, value]) => typeof value === "string")) : raw;
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: VoucherFieldErrors = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return { ok: false, errors };
}
