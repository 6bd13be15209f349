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

/** The longest texts a voucher line keeps. */
export const voucherLimits = { name: 100, message: 500, email: 254 } as const;

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
  .max(voucherLimits.email, errorKey("recipientEmail"))
  .pipe(z.email(errorKey("recipientEmail")));

const rawString = z.preprocess((value) => (typeof value === "string" ? value : ""), z.string());

/** `schema`'s value for `field`, or its first problem added under that field (so every field is checked in one round). */
function checked<T>(schema: z.ZodType<T>, value: unknown, field: string, ctx: z.RefinementCtx): T | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: "custom", path: [field], message: parsed.error.issues[0]?.message ?? errorKey(field) });
  return undefined;
}

/**
 * A gift card's texts and delivery, the same whether the amount comes from the page's buttons or as cents (the
 * API). They arrive as they are and are checked in giftCardOf: zod skips an object's transform once a field
 * fails, which would report the amount, e-mail and day only after the names were fixed.
 */
const giftCardTexts = {
  senderName: rawString,
  recipientName: rawString,
  delivery: rawString,
  recipientEmail: rawString,
  deliverOn: rawString,
  message: rawString,
};

type GiftCardTexts = { [K in keyof typeof giftCardTexts]: string };

/** The card as the service takes it: the recipient's e-mail and day only for a card sent by e-mail. */
function giftCardOf(amountCents: number | undefined, value: GiftCardTexts, ctx: z.RefinementCtx) {
  const senderName = checked(text("senderName", voucherLimits.name, { required: true }), value.senderName, "senderName", ctx);
  const recipientName = checked(text("recipientName", voucherLimits.name, { required: true }), value.recipientName, "recipientName", ctx);
  const delivery = checked(z.enum(["email", "print"], { error: errorKey("delivery") }), value.delivery, "delivery", ctx);
  let recipientEmail: string | null = null;
  let deliverOn: string | null = null;
  if (delivery === "email") {
    recipientEmail = checked(email, value.recipientEmail, "recipientEmail", ctx) ?? null;
    deliverOn = checked(isoDay, value.deliverOn, "deliverOn", ctx) ?? null;
  }
  const message = checked(text("message", voucherLimits.message, { required: false, multiline: true }), value.message, "message", ctx);
  return {
    amountCents: amountCents ?? 0,
    senderName: senderName ?? "",
    recipientName: recipientName ?? "",
    recipientEmail,
    deliverOn,
    message: message ?? "",
  };
}

const GiftCardFields = z
  .object({
    // A preset button sends its cents; "other" sends the free amount typed in euros.
    preset: rawString,
    amount: rawString,
    ...giftCardTexts,
  })
  .transform((value, ctx) => {
    const presetCents = /^[0-9]{1,6}$/.test(value.preset) ? Number(value.preset) : null;
    const typed = presetCents === null ? checked(euros("amount"), value.amount, "amount", ctx) : undefined;
    return giftCardOf(presetCents ?? typed, value, ctx);
  });

export type BuyGiftCardInput = z.infer<typeof GiftCardFields>;

/** The gift card form of /carta-regalo/acquista. */
export const BuyGiftCardInput = GiftCardFields;

/** A gift card sent to the API (`giftCards` of createcheckoutsession): the amount already in cents, the range the service's. */
export const GiftCardJsonInput = z
  // The amount typed as a number for the OpenAPI document: a client sending another type learns of it first.
  .object({ amountCents: z.number({ error: errorKey("amount") }).int(errorKey("amount")), ...giftCardTexts })
  .transform((value, ctx) => giftCardOf(value.amountCents, value, ctx));

const fundContributionTexts = {
  // Beyond a database integer no fund exists: refused here, not by the database.
  fundId: z.coerce
    .number({ error: errorKey("fund-not-found") })
    .int(errorKey("fund-not-found"))
    .positive(errorKey("fund-not-found"))
    .max(2_147_483_647, errorKey("fund-not-found")),
  senderName: text("giverName", voucherLimits.name, { required: true }),
  message: text("message", voucherLimits.message, { required: false, multiline: true }),
};

const FundContributionFields = z.object({ ...fundContributionTexts, amount: euros("contribution") });

export type FundContributionInput = { fundId: number; amountCents: number; senderName: string; message: string };

export const FundContributionInput = FundContributionFields.transform((value): FundContributionInput => ({
  fundId: value.fundId,
  amountCents: value.amount,
  senderName: value.senderName,
  message: value.message,
}));

/** A contribution sent to the API (`fundContributions` of createcheckoutsession): the amount already in cents. */
export const FundContributionJsonInput = z
  .object({ ...fundContributionTexts, amountCents: z.number({ error: errorKey("contribution") }).int(errorKey("contribution")) })
  .transform((value): FundContributionInput => ({
    fundId: value.fundId,
    amountCents: value.amountCents,
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
