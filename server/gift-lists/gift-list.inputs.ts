/**
 * What the gift-list forms (and the legacy API payloads, mapped once at that edge) may send. Every
 * message is a key under `giftLists.errors` in messages/{it,en}.json; the page translates it.
 */
import { z } from "zod";
import { parseEuroCents } from "#server/admin/product-admin.inputs.ts";
import type { Cents } from "#server/money.ts";
import { giftListTypes, giftListVisibilities, isEventDateAllowed, maxInvitationsPerSend, maxWishedQuantity, splitEmailList } from "./gift-list";
import { checkContributionAmount } from "./gift-list-group";

export const errorKey = (code: string) => `giftLists.errors.${code}`;

/** Field -> message key of its first problem. */
export type GiftListFieldErrors = Partial<Record<string, string>>;

export const giftListLimits = { title: 120, celebratedNames: 200, messageToGuests: 1000, giverName: 100, giftMessage: 500, emails: 10_000 } as const;

const controlChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Markup is never needed in a list's texts: refusing "<" and ">" keeps pasted HTML out. */
const markup = /[<>]/;

function text(field: keyof typeof giftListLimits, { required, multiline = false }: { required: boolean; multiline?: boolean }) {
  const base = z
    .string({ error: errorKey(`${field}Required`) })
    .transform((value) => (multiline ? value.replace(/\r\n?/g, "\n").trim() : value.replace(/\s+/g, " ").trim()))
    .refine((value) => value.length <= giftListLimits[field], errorKey("tooLong"))
    .refine((value) => !controlChars.test(value) && (multiline || !/\n/.test(value)), errorKey("invalidCharacters"))
    .refine((value) => !markup.test(value), errorKey("invalidCharacters"));
  return required ? base.refine((value) => value.length > 0, errorKey(`${field}Required`)) : base;
}

const isoDate = z
  .string({ error: errorKey("eventDateRequired") })
  .trim()
  .min(1, errorKey("eventDateRequired"))
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, errorKey("eventDateInvalid"))
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && value >= "2000-01-01" && value <= "2100-12-31";
  }, errorKey("eventDateInvalid"));

/** "collection" (gifts collected in the shop) or the id of one of MY addresses (checked by the service). */
const Delivery = z
  .string({ error: errorKey("deliveryRequired") })
  .trim()
  .min(1, errorKey("deliveryRequired"))
  .refine((value) => value === "collection" || /^[1-9][0-9]{0,9}$/.test(value), errorKey("deliveryRequired"))
  .transform((value) => (value === "collection" ? null : Number(value)))
  .refine((value) => value === null || value <= 2_147_483_647, errorKey("deliveryRequired"));

/**
 * The list form, for the page and the API alike. The event date is today or later in Italy's calendar
 * (`now`); an edited list may keep the date it has (`keepDate`), even once it has passed. Checked here,
 * with the other fields, so one answer names every problem at once.
 */
export function giftListInput(dates: { now: Date; keepDate?: string | null }) {
  return z.object({
    title: text("title", { required: true }),
    type: z.enum(giftListTypes, { error: errorKey("typeRequired") }),
    eventDate: isoDate.refine((value) => value === dates.keepDate || isEventDateAllowed(value, dates.now), errorKey("eventDatePast")),
    celebratedNames: text("celebratedNames", { required: true }),
    messageToGuests: z.preprocess((value) => value ?? "", text("messageToGuests", { required: false, multiline: true })),
    shippingAddressId: Delivery,
    visibility: z.enum(giftListVisibilities, { error: errorKey("visibilityRequired") }),
  });
}
export type GiftListInput = z.infer<ReturnType<typeof giftListInput>>;

export const GiftListId = z.uuid();
export const GiftListItemId = z.uuid();

const Quantity = z.coerce
  .number({ error: errorKey("quantity-invalid") })
  .int(errorKey("quantity-invalid"))
  .min(1, errorKey("quantity-invalid"))
  .max(maxWishedQuantity, errorKey("quantity-invalid"));

/** No variant at all: the product page always sends its colour, so what was not chosen is the size. */
const VariantId = z
  .unknown()
  .refine((value) => value !== undefined && value !== null && value !== "", { error: errorKey("size-required"), abort: true })
  .pipe(
    z.coerce
      .number({ error: errorKey("variant-not-found") })
      .int()
      .positive()
      .max(2_147_483_647),
  );

export const AddToGiftListInput = z.object({
  giftListId: z.uuid({ error: errorKey("no-list-selected") }),
  variantId: VariantId,
  quantity: Quantity,
  personalisation: z.record(z.string(), z.string().max(500, errorKey("personalisation-too-long"))).default({}),
});
export type AddToGiftListInput = z.infer<typeof AddToGiftListInput>;

export const UpdateGiftListItemInput = z.object({ itemId: GiftListItemId, quantity: Quantity });
export type UpdateGiftListItemInput = z.infer<typeof UpdateGiftListItemInput>;

/** A guest buying from a list: the item and how many; the cart applies its own rules after. */
export const GuestAddInput = z.object({ itemId: GiftListItemId, quantity: Quantity });

/** The giver's name and message to the list's owner, kept on the cart for checkout. */
export const GiftNoteInput = z.object({
  giverName: text("giverName", { required: true }),
  giftMessage: z.preprocess((value) => value ?? "", text("giftMessage", { required: false, multiline: true })),
});
export type GiftNoteInput = z.infer<typeof GiftNoteInput>;

const emailShape = z.email();

const checkbox = z.preprocess((value) => value === "on" || value === "true" || value === "1" || value === true, z.boolean());

/** Which contribution a form is (its double-click guard) and for which item: read before the whole form. */
export const ContributionTarget = z.object({ idempotencyKey: z.uuid({ error: errorKey("invalid") }), itemId: GiftListItemId });

/**
 * A guest's contribution toward a group gift: the amount in euros ("50", "12,50") within what the round
 * still lacks (`leftCents`, read before parsing), who gives it, a receipt address. The amount's range is
 * checked here, with the other fields, so one answer names every problem, each on its field.
 */
export function contributionInput(leftCents: Cents) {
  return ContributionTarget.extend({
    amount: z.string({ error: errorKey("amountRequired") }).transform((raw, ctx) => {
      const parsed = parseEuroCents(raw);
      if (!parsed.ok || parsed.cents <= 0) {
        ctx.addIssue({ code: "custom", message: errorKey(raw.trim() === "" ? "amountRequired" : "amountInvalid") });
        return z.NEVER;
      }
      const refusal = checkContributionAmount(parsed.cents, leftCents);
      if (refusal) {
        ctx.addIssue({ code: "custom", message: errorKey(refusal) });
        return z.NEVER;
      }
      return parsed.cents;
    }),
    giverName: text("giverName", { required: true }),
    email: z
      .string({ error: errorKey("emailRequired") })
      .trim()
      .toLowerCase()
      .min(1, errorKey("emailRequired"))
      .refine((value) => value.length <= 254 && emailShape.safeParse(value).success, errorKey("emailInvalid")),
    giftMessage: z.preprocess((value) => value ?? "", text("giftMessage", { required: false, multiline: true })),
    acceptTerms: checkbox.refine((value) => value, errorKey("acceptTermsRequired")),
  });
}
export type ContributionInput = z.infer<ReturnType<typeof contributionInput>>;

/** The owner opens an item to group gifting, or closes it again. */
export const GroupGiftSwitchInput = z.object({ itemId: GiftListItemId, groupGift: z.enum(["on", "off"]) });

/** The invitation form: up to 50 valid, distinct addresses. Bad ones are named in the message. */
export const InvitationInput = z.object({
  emails: z
    .string({ error: errorKey("emailsRequired") })
    .max(giftListLimits.emails, errorKey("tooManyEmails"))
    .transform(splitEmailList)
    .superRefine((emails, ctx) => {
      if (emails.length === 0) ctx.addIssue({ code: "custom", message: errorKey("emailsRequired") });
      else if (emails.length > maxInvitationsPerSend) ctx.addIssue({ code: "custom", message: errorKey("tooManyEmails") });
      const bad = emails.filter((email) => email.length > 254 || !emailShape.safeParse(email).success);
      if (bad.length > 0) ctx.addIssue({ code: "custom", message: errorKey("emailsInvalid"), params: { bad: bad.slice(0, 5) } });
    }),
});
export type InvitationInput = z.infer<typeof InvitationInput>;

export type ParsedInput<T> =
  { ok: true; value: T } | { ok: false; errors: GiftListFieldErrors; /** Addresses refused (invitations). */ bad?: string[] };

export function parseGiftListForm<S extends z.ZodType>(schema: S, raw: unknown): ParsedInput<z.infer<S>> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: GiftListFieldErrors = {};
  let bad: string[] | undefined;
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message.startsWith("giftLists.") ? issue.message : errorKey("invalid");
    const params = (issue as { params?: { bad?: string[] } }).params;
    if (params?.bad) bad = params.bad;
  }
  return { ok: false, errors, ...(bad ? { bad } : {}) };
}
