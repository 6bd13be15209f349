/**
 * The back office's discount-code form, parsed once: each refusal is a message key under
 * `admin.discountCodes.errors`, on the field it is about. Amounts are typed in euros ("10,00"), the
 * validity as Italian days (valid from the first day's start to the last day's end).
 */
import { z } from "zod";
import { addDays, italianMidnight } from "#common/shop-calendar.ts";
import { parseEuroCents } from "#server/admin/product-admin.inputs.ts";
import { normaliseDiscountCode } from "./coupon";

export const couponFields = [
  "code",
  "note",
  "kind",
  "percent",
  "amount",
  "minOrder",
  "validFrom",
  "validUntil",
  "maxUses",
  "maxUsesPerCustomer",
  "combinesWithFreeDelivery",
  "appliesToGiftLists",
] as const;
export type CouponFormValues = Partial<Record<(typeof couponFields)[number], string>> & { categoryIds?: string[]; brandIds?: string[] };

const key = (name: string) => `admin.discountCodes.errors.${name}`;
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, key("date"));
const Count = z
  .string()
  .trim()
  .regex(/^([1-9]\d{0,6})?$/, key("count"))
  .transform((value) => (value === "" ? null : Number(value)));
const Ids = z
  .array(
    z
      .string()
      .regex(/^[1-9]\d{0,8}$/, key("invalid"))
      .transform(Number),
  )
  .max(500, key("invalid"));
const Euros = (field: string, required: boolean) =>
  z
    .string()
    .trim()
    .transform((value, context) => {
      if (value === "" && !required) return 0;
      const parsed = parseEuroCents(value);
      if (!parsed.ok || parsed.cents <= 0) {
        context.addIssue({ code: "custom", message: key(field), path: [] });
        return z.NEVER;
      }
      return parsed.cents;
    });

const CouponForm = z
  .object({
    code: z.string().transform((typed, context) => {
      const code = normaliseDiscountCode(typed);
      if (!code) {
        context.addIssue({ code: "custom", message: key("code") });
        return z.NEVER;
      }
      return code;
    }),
    note: z.string().trim().max(200, key("note")),
    kind: z.enum(["percent", "fixed"], key("kind")),
    percent: z.string().trim(),
    amount: z.string().trim(),
    minOrder: Euros("minOrder", false),
    validFrom: Day,
    validUntil: Day,
    maxUses: Count,
    maxUsesPerCustomer: Count,
    combinesWithFreeDelivery: z.boolean(),
    appliesToGiftLists: z.boolean(),
    categoryIds: Ids,
    brandIds: Ids,
  })
  .transform((form, context) => {
    let percent: number | null = null;
    let amountCents: number | null = null;
    if (form.kind === "percent") {
      percent = /^\d{1,3}$/.test(form.percent) ? Number(form.percent) : NaN;
      if (!(percent >= 1 && percent <= 100)) context.addIssue({ code: "custom", message: key("percent"), path: ["percent"] });
    } else {
      const parsed = parseEuroCents(form.amount);
      if (parsed.ok && parsed.cents > 0) amountCents = parsed.cents;
      else context.addIssue({ code: "custom", message: key("amount"), path: ["amount"] });
    }
    if (form.validUntil < form.validFrom) context.addIssue({ code: "custom", message: key("validUntil"), path: ["validUntil"] });
    return {
      code: form.code,
      note: form.note,
      kind: form.kind,
      percent,
      amountCents,
      minOrderCents: form.minOrder,
      // Whole Italian days: from the first day's midnight to the midnight after the last.
      validFrom: italianMidnight(form.validFrom),
      validUntil: italianMidnight(addDays(form.validUntil, 1)),
      maxUses: form.maxUses,
      maxUsesPerCustomer: form.maxUsesPerCustomer,
      combinesWithFreeDelivery: form.combinesWithFreeDelivery,
      appliesToGiftLists: form.appliesToGiftLists,
      categoryIds: [...new Set(form.categoryIds)],
      brandIds: [...new Set(form.brandIds)],
    };
  });
export type CouponInput = z.output<typeof CouponForm>;

export type ParsedCouponForm = { ok: true; input: CouponInput } | { ok: false; values: CouponFormValues; errors: Record<string, string> };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The form as typed (to show it again) and, when every field is right, the code's terms. */
export function parseCouponForm(form: FormData): ParsedCouponForm {
  const values: CouponFormValues = Object.fromEntries(couponFields.map((name) => [name, text(form, name).slice(0, 500)]));
  values.categoryIds = form.getAll("categoryIds").filter((value): value is string => typeof value === "string");
  values.brandIds = form.getAll("brandIds").filter((value): value is string => typeof value === "string");
  const parsed = CouponForm.safeParse({
    ...values,
    combinesWithFreeDelivery: values.combinesWithFreeDelivery === "on",
    appliesToGiftLists: values.appliesToGiftLists === "on",
  });
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message.startsWith("admin.") ? issue.message : key("invalid");
  }
  return { ok: false, values, errors };
}
