/**
 * What the cart action accepts from outside: the form fields of app/ui/add-to-cart-form.tsx and of
 * the cart page. Each refusal maps to one error code of cart.ts (also the message key).
 */
import { z } from "zod";
import { sameSitePath } from "#server/http/same-site-path.ts";
import { maxQuantityPerAdd, type CartErrorCode } from "./cart";

/** Longest personalisation text the form may carry; each product field has its own, shorter, maxLength. */
export const maxPersonalisationText = 500;
const maxPersonalisationFields = 20;

const withCode = (code: CartErrorCode) => ({ error: code });

const VariantId = z
  .string(withCode("variant-not-found"))
  .regex(/^[1-9][0-9]{0,9}$/, withCode("variant-not-found"))
  .transform(Number)
  .pipe(z.number().max(2_147_483_647, withCode("variant-not-found")));

/** "1" when absent; "0", "-1", "1.5", "abc" refused; large whole numbers go on to the stock check. */
const Quantity = z
  .string(withCode("quantity-invalid"))
  .trim()
  .regex(/^[0-9]{1,10}$/, withCode("quantity-invalid"))
  .transform(Number)
  .pipe(z.number().int().min(1, withCode("quantity-invalid")).max(maxQuantityPerAdd, withCode("quantity-invalid")))
  .default(1);

const LineId = z.uuid(withCode("line-not-found"));

const Personalisation = z
  .record(z.string(), z.string().max(maxPersonalisationText, withCode("personalisation-too-long")))
  .refine((texts) => Object.keys(texts).length <= maxPersonalisationFields, withCode("personalisation-unknown-field"));

export const AddToCartInput = z.object({
  intent: z.literal("add"),
  variantId: VariantId,
  quantity: Quantity,
  personalisation: Personalisation,
});
export type AddToCartInput = z.infer<typeof AddToCartInput>;

export const CartLineInput = z.object({ intent: z.enum(["increase", "decrease", "remove"]), lineId: LineId });
export type CartLineInput = z.infer<typeof CartLineInput>;

export const CartWideInput = z.object({ intent: z.enum(["clear", "share"]) });
export type CartWideInput = z.infer<typeof CartWideInput>;

export const CartActionInput = z.discriminatedUnion("intent", [AddToCartInput, CartLineInput, CartWideInput], withCode("invalid-request"));
export type CartActionInput = z.infer<typeof CartActionInput>;

export type ParsedCartForm =
  { ok: true; input: CartActionInput; redirectTo: string | null } | { ok: false; error: CartErrorCode; redirectTo: string | null };

const personalisationField = /^personalisation\.(0|[1-9][0-9]{0,3})$/;

/**
 * Reads a cart form once. Fields `personalisation.N` become the map { N: text }; any other field
 * named personalisation... is an unknown field. A field sent twice counts as a malformed request.
 */
export function parseCartForm(form: FormData | URLSearchParams): ParsedCartForm {
  const redirectTo = sameSitePath(form.get("redirectTo"));
  const fields: Record<string, string> = {};
  const personalisation: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string") return { ok: false, error: "invalid-request", redirectTo };
    if (seen.has(name)) return { ok: false, error: "invalid-request", redirectTo };
    seen.add(name);
    if (name.startsWith("personalisation")) {
      const match = personalisationField.exec(name);
      if (!match) return { ok: false, error: "personalisation-unknown-field", redirectTo };
      personalisation[match[1]!] = value;
    } else {
      fields[name] = value;
    }
  }
  const candidate = fields.intent === "add" ? { ...fields, personalisation } : fields;
  const parsed = CartActionInput.safeParse(candidate);
  if (parsed.success) {
    if (parsed.data.intent !== "add" && Object.keys(personalisation).length > 0) {
      return { ok: false, error: "personalisation-unknown-field", redirectTo };
    }
    return { ok: true, input: parsed.data, redirectTo };
  }
  return { ok: false, error: errorCodeOf(parsed.error), redirectTo };
}

const knownCodes = new Set<string>([
  "variant-not-found",
  "quantity-invalid",
  "line-not-found",
  "personalisation-too-long",
  "personalisation-unknown-field",
]);

function errorCodeOf(error: z.ZodError): CartErrorCode {
  for (const issue of error.issues) {
    if (knownCodes.has(issue.message)) return issue.message as CartErrorCode;
  }
  return "invalid-request";
}
