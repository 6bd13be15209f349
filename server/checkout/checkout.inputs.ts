/**
 * The checkout form as it arrives from outside (docs/rules.md#checkout). Prices, totals and fees
 * are never read from it: unknown fields are dropped. Messages are keys of messages/{it,en}.json
 * (`checkoutErrors.fields.*`, and the address and e-mail keys of `auth.errors.*` shared with /my-account);
 * parseCheckoutForm translates them into the page's language.
 */
import { z } from "zod";
import type { Locale } from "#common/locale.ts";
import { AddressInput, addressLimits } from "#server/accounts/address.inputs.ts";
import { formFields } from "#server/accounts/form-values.ts";
import { phoneChars, profileLimits } from "#server/accounts/profile.inputs.ts";
import { controlChars, emailField, emailLimit, errorKey } from "#server/accounts/text-rules.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { deliveryMethods, paymentChoices, paymentMethods, paymentOfChoice } from "#server/orders/order-methods.ts";
import { isValidFiscalCode, normaliseFiscalCode } from "#server/accounts/fiscal-code.ts";
import { namePunctuation } from "#server/invoices/fatturapa.ts";
import { isValidVatNumber, normaliseVatNumber } from "#server/invoices/fiscal-codes.ts";

const fieldKey = (code: string) => `checkoutErrors.fields.${code}`;

export const checkoutLimits = { companyName: 200, pec: emailLimit } as const;

/** The delivery address fields: required for home deliveries, unless a saved address is picked. */
export const addressFields = ["street", "houseNumber", "postcode", "city", "province"] as const;

/** Every field the form may carry (what a refused form shows again). */
export const checkoutFields = [
  "idempotencyKey",
  "firstName",
  "lastName",
  "email",
  "phone",
  "deliveryMethod",
  "paymentMethod",
  "savedAddressId",
  ...addressFields,
  "invoiceKind",
  "wantsInvoice",
  "fiscalCode",
  "companyName",
  "vatNumber",
  "sdiCode",
  "pec",
  "acceptTerms",
  "discountCode",
  "giftCardCode",
  "loyaltyPoints",
] as const;

/** Limits the "too long" message names. */
const fieldMax: Partial<Record<string, number>> = { ...addressLimits, email: emailLimit, phone: profileLimits.phone, ...checkoutLimits };

const checkbox = z.preprocess((value) => value === true || value === "on" || value === "true" || value === "1", z.boolean());
/** Absent or not a string reads as "": the cross-field checks decide whether it was needed. */
const looseText = z.preprocess((value) => (typeof value === "string" ? value : ""), z.string());

function methodField<const T extends readonly [string, ...string[]]>(values: T, name: "deliveryMethod" | "paymentMethod") {
  return z.enum(values, {
    error: (issue) => fieldKey(issue.input === undefined || issue.input === "" ? `${name}Required` : `${name}Invalid`),
  });
}

/** A required single line with this form's own messages (the shared text rules name `auth.errors` keys). */
function requiredLine(field: string, max: number, allowed: RegExp, invalid: string) {
  return z
    .string({ error: fieldKey(`${field}Required`) })
    .trim()
    .min(1, fieldKey(`${field}Required`))
    .max(max, errorKey("tooLong"))
    .refine((value) => !controlChars.test(value), errorKey("invalidCharacters"))
    .refine((value) => allowed.test(value), invalid);
}

/** Letters, digits and the punctuation the invoice's file can write (server/invoices/fatturapa.ts), with a letter or digit among them. */
const companyNameChars = new RegExp(`^(?=.*[\\p{L}\\p{N}])[\\p{L}\\p{M}0-9${namePunctuation.replace(/[\\\]^-]/g, "\\$&")}]+$`, "u");
const companyName = requiredLine("companyName", checkoutLimits.companyName, companyNameChars, fieldKey("companyNameInvalid"));
const phone = requiredLine("phone", profileLimits.phone, phoneChars, errorKey("phoneInvalid"));
/** Partita IVA: 11 digits, the last its check digit; "IT" and spaces as people type them are dropped. */
export const vatNumber = z
  .string()
  .transform(normaliseVatNumber)
  .refine((value) => value.length > 0, fieldKey("vatNumberRequired"))
  .refine((value) => value === "" || /^[0-9]{11}$/.test(value), fieldKey("vatNumberInvalid"))
  .refine((value) => !/^[0-9]{11}$/.test(value) || isValidVatNumber(value), "invoices.checkout.errors.vatNumberCheck");
/** A private person's codice fiscale, checked with its check character (omocodia letters accepted). */
export const fiscalCode = z
  .string()
  .transform(normaliseFiscalCode)
  .refine((value) => value.length > 0, "invoices.checkout.errors.fiscalCodeRequired")
  .refine((value) => value === "" || isValidFiscalCode(value), "invoices.checkout.errors.fiscalCodeInvalid");
/** Whether an invoice is wanted and for whom; the older `wantsInvoice` box meant a company's. */
export const invoiceKinds = ["none", "private", "company"] as const;
/** Codice destinatario SDI: 7 letters or digits. */
export const sdiCode = z
  .string()
  .transform((value) => value.trim().toUpperCase())
  .refine((value) => value === "" || /^[A-Z0-9]{7}$/.test(value), fieldKey("sdiCodeInvalid"));
export const pec = z
  .string()
  .trim()
  .max(checkoutLimits.pec, fieldKey("pecInvalid"))
  .refine((value) => value === "" || z.email().safeParse(value).success, fieldKey("pecInvalid"))
  .transform((value) => value.toLowerCase());

const CheckoutFields = z.object({
  idempotencyKey: z.uuid({ error: fieldKey("invalidRequest") }),
  firstName: AddressInput.shape.firstName,
  lastName: AddressInput.shape.lastName,
  email: emailField(),
  phone,
  deliveryMethod: methodField(deliveryMethods, "deliveryMethod"),
  /** One of the shop's own ways to be paid, or a way to pay online by name ("card", "paypal"...). */
  paymentMethod: methodField(paymentChoices, "paymentMethod"),
  savedAddressId: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z.coerce
      .number({ error: fieldKey("savedAddressInvalid") })
      .int(fieldKey("savedAddressInvalid"))
      .positive(fieldKey("savedAddressInvalid"))
      .max(2_147_483_647, fieldKey("savedAddressInvalid"))
      .optional(),
  ),
  street: looseText,
  houseNumber: looseText,
  postcode: looseText,
  city: looseText,
  province: looseText,
  invoiceKind: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z.enum(invoiceKinds, { error: "invoices.checkout.errors.kindInvalid" }).optional(),
  ),
  wantsInvoice: checkbox,
  fiscalCode: looseText,
  companyName: looseText,
  vatNumber: looseText,
  sdiCode: looseText,
  pec: looseText,
  acceptTerms: checkbox.refine((value) => value, fieldKey("acceptTermsRequired")),
  /** Checked on the server against the codes (server/coupons/coupon.service.ts). */
  discountCode: looseText,
  /** A gift card to pay with (server/gift-cards/): checked and spent on the server. */
  giftCardCode: looseText,
  /** Loyalty points to spend: absent or "" is none; checked on the server against the card and the steps (server/loyalty/). */
  loyaltyPoints: z.preprocess(
    (value) => (value === "" || value === null || value === undefined ? 0 : value),
    z.coerce
      .number({ error: "loyalty.errors.not-a-step" })
      .int("loyalty.errors.not-a-step")
      .min(0, "loyalty.errors.not-a-step")
      .max(10_000_000, "loyalty.errors.not-a-step"),
  ),
});

type Fields = z.infer<typeof CheckoutFields>;

function firstMessage(result: z.ZodSafeParseResult<unknown>): string | null {
  return result.success ? null : (result.error.issues[0]?.message ?? fieldKey("invalidRequest"));
}

/** A gift-list cart's form has no address: the order goes to the list's (copied on the server, never shown). */
type FormKind = { giftList: boolean };

const invoiceKindOf = (value: Partial<Fields>) => value.invoiceKind ?? (value.wantsInvoice ? "company" : "none");

/** The checks between fields; runs even when other fields have problems, so every message shows at once. */
function checkCrossFields(value: Partial<Fields>, ctx: z.RefinementCtx, kind: FormKind) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  const delivery = deliveryMethods.find((method) => method === value.deliveryMethod);
  const payment = paymentMethods.find((method) => method === (value.paymentMethod && paymentOfChoice(value.paymentMethod).paymentMethod));
  if (delivery && payment) {
    if (payment === "cash_on_delivery" && delivery === "collection") issue("paymentMethod", fieldKey("cashOnDeliveryNeedsHomeDelivery"));
    if (payment === "in_shop" && delivery !== "collection") issue("paymentMethod", fieldKey("inShopNeedsCollection"));
  }
  const invoice = kind.giftList ? "none" : invoiceKindOf(value);
  if (!kind.giftList && needsTypedAddress(value, invoice)) {
    for (const field of addressFields) {
      const message = firstMessage(AddressInput.shape[field].safeParse(value[field] ?? ""));
      if (message) issue(field, message);
    }
  }
  if (invoice === "private") {
    const code = firstMessage(fiscalCode.safeParse(value.fiscalCode ?? ""));
    if (code) issue("fiscalCode", code);
  }
  if (invoice === "company") {
    const company = firstMessage(companyName.safeParse(value.companyName ?? ""));
    if (company) issue("companyName", company);
    const vat = firstMessage(vatNumber.safeParse(value.vatNumber ?? ""));
    if (vat) issue("vatNumber", vat);
    const sdi = sdiCode.safeParse(value.sdiCode ?? "");
    const mail = pec.safeParse(value.pec ?? "");
    if (!sdi.success) issue("sdiCode", firstMessage(sdi)!);
    if (!mail.success) issue("pec", firstMessage(mail)!);
    if (sdi.success && mail.success && sdi.data === "" && mail.data === "") issue("sdiCode", fieldKey("sdiOrPecRequired"));
  }
}

/**
 * The address is typed for a home delivery without a saved address, and for an invoice collected in the
 * shop: an invoice names the buyer's address (docs/decisions/0056-invoice-request-at-checkout.md).
 */
function needsTypedAddress(value: Partial<Fields>, invoice: (typeof invoiceKinds)[number]) {
  if (value.savedAddressId !== undefined && value.deliveryMethod !== "collection") return false;
  return value.deliveryMethod !== "collection" || invoice !== "none";
}

/** The form once valid, flat: the address typed (nulls for collection or a saved address), invoice data only when asked for. */
function normalise(value: Fields, kind: FormKind) {
  // A gift-list order goes to the family's address, which must not appear on the giver's invoice.
  const invoiceKind = kind.giftList ? "none" : invoiceKindOf(value);
  const typesAddress = !kind.giftList && needsTypedAddress(value, invoiceKind);
  const address = (field: (typeof addressFields)[number]) => (typesAddress ? AddressInput.shape[field].parse(value[field]) : null);
  const invoice = invoiceKind === "company";
  return {
    idempotencyKey: value.idempotencyKey,
    firstName: value.firstName,
    lastName: value.lastName,
    email: value.email,
    phone: value.phone,
    deliveryMethod: value.deliveryMethod,
    ...paymentOfChoice(value.paymentMethod),
    savedAddressId: kind.giftList || value.deliveryMethod === "collection" ? undefined : value.savedAddressId,
    street: address("street"),
    houseNumber: address("houseNumber"),
    postcode: address("postcode"),
    city: address("city"),
    province: address("province"),
    invoiceKind,
    fiscalCode: invoiceKind === "private" ? fiscalCode.parse(value.fiscalCode) : null,
    companyName: invoice ? companyName.parse(value.companyName) : null,
    vatNumber: invoice ? vatNumber.parse(value.vatNumber) : null,
    sdiCode: invoice ? sdiCode.parse(value.sdiCode) || null : null,
    pec: invoice ? pec.parse(value.pec) || null : null,
    acceptTerms: true as const,
    discountCode: value.discountCode.trim().slice(0, 100) || null,
    giftCardCode: value.giftCardCode.trim().slice(0, 40) || null,
    loyaltyPoints: value.loyaltyPoints,
  };
}

function checkoutInputOf(kind: FormKind) {
  return CheckoutFields.superRefine((value, ctx) => checkCrossFields(value, ctx, kind), {
    when: (payload) => typeof payload.value === "object" && payload.value !== null,
  }).transform((value) => normalise(value, kind));
}

export const CheckoutInput = checkoutInputOf({ giftList: false });
export type CheckoutInput = z.infer<typeof CheckoutInput>;
const GiftListCheckoutInput = checkoutInputOf({ giftList: true });

/** Field -> message already in the page's language. */
export type CheckoutFieldErrors = Partial<Record<string, string>>;

function rawFields(form: FormData | URLSearchParams | Record<string, unknown>): Record<string, unknown> {
  if (form instanceof FormData) return formFields(form);
  if (form instanceof URLSearchParams) {
    const fields: Record<string, string> = {};
    for (const [name, value] of form) if (!(name in fields)) fields[name] = value;
    return fields;
  }
  return form;
}

/** What a refused form shows again: the known fields as strings, control characters removed. */
export function checkoutFormValues(form: FormData | URLSearchParams | Record<string, unknown>): Record<string, string> {
  const raw = rawFields(form);
  const values: Record<string, string> = {};
  for (const name of checkoutFields) {
    const value = raw[name];
    const text = typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : "";
    values[name] = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "").slice(0, 1000);
  }
  return values;
}

export function parseCheckoutForm(
  form: FormData | URLSearchParams | Record<string, unknown>,
  locale: Locale,
  options: { giftList?: boolean } = {},
): { ok: true; input: CheckoutInput } | { ok: false; errors: CheckoutFieldErrors; values: Record<string, string> } {
  const raw = rawFields(form);
  const parsed = (options.giftList ? GiftListCheckoutInput : CheckoutInput).safeParse(raw);
  if (parsed.success) return { ok: true, input: parsed.data };
  const t = getTranslator(locale);
  const errors: CheckoutFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= t(issue.message, { max: fieldMax[field] });
  }
  return { ok: false, errors, values: checkoutFormValues(raw) };
}
