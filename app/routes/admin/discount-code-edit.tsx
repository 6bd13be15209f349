import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { addDays, italianDayOf } from "#common/shop-calendar.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert } from "#app/ui/admin-form.tsx";
import { TextField, CheckboxField } from "#app/ui/form-field.tsx";
import { parseAdminId } from "#server/admin/admin-request.ts";
import { formatEuroInput } from "#server/admin/product-admin.inputs.ts";
import { createCoupon, getCoupon, getCouponChoices, setCouponActive, updateCoupon, type AdminCoupon } from "#server/coupons/coupon-admin.service.ts";
import { parseCouponForm, type CouponFormValues } from "#server/coupons/coupon.inputs.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/discount-code-edit";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: [] } satisfies MessagesHandle;

/** The form's fields for a stored code: euros as "10,00", the last valid day (it ends at the midnight after it). */
function valuesOf(code: AdminCoupon): CouponFormValues {
  return {
    code: code.code,
    note: code.note,
    kind: code.kind,
    percent: code.percent === null ? "" : String(code.percent),
    amount: code.amountCents === null ? "" : formatEuroInput(code.amountCents),
    minOrder: code.minOrderCents > 0 ? formatEuroInput(code.minOrderCents) : "",
    validFrom: italianDayOf(code.validFrom),
    validUntil: italianDayOf(new Date(code.validUntil.getTime() - 1)),
    maxUses: code.maxUses === null ? "" : String(code.maxUses),
    maxUsesPerCustomer: code.maxUsesPerCustomer === null ? "" : String(code.maxUsesPerCustomer),
    combinesWithFreeDelivery: code.combinesWithFreeDelivery ? "on" : "",
    appliesToGiftLists: code.appliesToGiftLists ? "on" : "",
    categoryIds: code.categoryIds.map(String),
    brandIds: code.brandIds.map(String),
  };
}

/** "nuovo", or the id of a staff code (a completion code or anything else: 404). */
async function loadTarget(db: Parameters<typeof getCoupon>[0], param: string | undefined) {
  if (param === "nuovo") return null;
  const id = parseAdminId(param);
  const code = id === null ? null : await getCoupon(db, id);
  if (!code) throw data(null, { status: 404 });
  return code;
}

/** /admin/codici-sconto/nuovo and /admin/codici-sconto/:id: a code's terms; an existing one can be deactivated. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const code = await loadTarget(db, params.id);
  const today = italianDayOf(new Date());
  return {
    meta: getPageMetaTexts(locale, "admin.discountCodes"),
    locale,
    code: code ? { id: code.id, code: code.code, isActive: code.isActive, usedCount: code.usedCount } : null,
    values: code
      ? valuesOf(code)
      : ({ kind: "percent", validFrom: today, validUntil: addDays(today, 30), combinesWithFreeDelivery: "on" } as CouponFormValues),
    choices: await getCouponChoices(db),
  };
}

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const code = await loadTarget(db, params.id);
  const form = await request.formData();
  const intent = form.get("intent");
  const listHref = (done: string) => `${localizedHref("/admin/codici-sconto", locale)}?done=${done}`;
  if (code && (intent === "deactivate" || intent === "activate")) {
    await setCouponActive(db, { id: code.id, isActive: intent === "activate", actorUserId: admin.id });
    return redirect(listHref(intent === "activate" ? "activated" : "deactivated"));
  }
  if (intent !== "save") return data({ values: null, errors: { form: "admin.errors.invalid" } }, { status: 400 });
  const parsed = parseCouponForm(form);
  if (!parsed.ok) return data({ values: parsed.values, errors: parsed.errors }, { status: 400 });
  const saved = code
    ? await updateCoupon(db, { id: code.id, input: parsed.input, actorUserId: admin.id })
    : await createCoupon(db, { input: parsed.input, actorUserId: admin.id });
  if (saved.ok) return redirect(listHref(code ? "saved" : "created"));
  if (saved.error === "not-found") throw data(null, { status: 404 });
  const field = saved.error === "code-taken" ? "code" : "maxUses";
  const values = Object.fromEntries(form.entries()) as CouponFormValues;
  return data(
    {
      values: { ...values, categoryIds: form.getAll("categoryIds").map(String), brandIds: form.getAll("brandIds").map(String) },
      errors: { [field]: `admin.discountCodes.errors.${saved.error}` },
    },
    { status: 400 },
  );
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminDiscountCodeEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, code, choices } = loaderData;
  const values = actionData?.values ?? loaderData.values;
  const errors: Record<string, string> = actionData?.errors ?? {};
  const error = (name: string) => (errors[name] ? t(errors[name]) : undefined);
  const field = (name: keyof CouponFormValues) => ({ name, defaultValue: String(values[name] ?? ""), error: error(name) });
  const title = code ? t("admin.discountCodes.editTitle", { code: code.code }) : t("admin.discountCodes.newTitle");
  return (
    <section>
      <Link to={localizedHref("/admin/codici-sconto", locale)} className="font-semibold text-brand-800 underline">
        {t("admin.discountCodes.back")}
      </Link>
      <h1 className="mt-2 text-3xl font-bold">{title}</h1>
      {code && <p className="mt-1 text-muted">{t("admin.discountCodes.usedSoFar", { count: code.usedCount })}</p>}
      {Object.keys(errors).length > 0 && (
        <div className="mt-4">
          <FormAlert>{errors.form ? t(errors.form) : t("admin.errors.summary")}</FormAlert>
        </div>
      )}
      <Form method="post" className="mt-6 space-y-6" noValidate>
        <input type="hidden" name="intent" value="save" />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t("admin.discountCodes.code")}
            hint={t("admin.discountCodes.codeHint")}
            required
            autoCapitalize="characters"
            {...field("code")}
          />
          <TextField label={t("admin.discountCodes.note")} hint={t("admin.discountCodes.noteHint")} {...field("note")} />
        </div>
        <fieldset className="rounded-xl border border-brand-100 bg-white p-4">
          <legend className="px-1 font-bold">{t("admin.discountCodes.saving")}</legend>
          <div className="flex flex-wrap gap-6">
            {(["percent", "fixed"] as const).map((kind) => (
              <label key={kind} className="flex min-h-11 items-center gap-2 font-semibold">
                <input type="radio" name="kind" value={kind} defaultChecked={(values.kind ?? "percent") === kind} className="size-5" />
                {t(`admin.discountCodes.kind.${kind}`)}
              </label>
            ))}
          </div>
          <div className="mt-3 grid gap-4 sm:grid-cols-3">
            <TextField label={t("admin.discountCodes.percent")} inputMode="numeric" {...field("percent")} />
            <TextField label={t("admin.discountCodes.amount")} inputMode="decimal" {...field("amount")} />
            <TextField
              label={t("admin.discountCodes.minOrder")}
              hint={t("admin.discountCodes.minOrderHint")}
              inputMode="decimal"
              {...field("minOrder")}
            />
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t("admin.discountCodes.validFrom")} type="date" required {...field("validFrom")} />
          <TextField label={t("admin.discountCodes.validUntil")} type="date" required {...field("validUntil")} />
          <TextField
            label={t("admin.discountCodes.maxUses")}
            hint={t("admin.discountCodes.unlimitedHint")}
            inputMode="numeric"
            {...field("maxUses")}
          />
          <TextField
            label={t("admin.discountCodes.maxUsesPerCustomer")}
            hint={t("admin.discountCodes.perCustomerHint")}
            inputMode="numeric"
            {...field("maxUsesPerCustomer")}
          />
        </div>
        <div>
          <CheckboxField
            label={t("admin.discountCodes.combinesWithFreeDelivery")}
            name="combinesWithFreeDelivery"
            defaultChecked={values.combinesWithFreeDelivery === "on"}
          />
          <CheckboxField
            label={t("admin.discountCodes.appliesToGiftLists")}
            name="appliesToGiftLists"
            defaultChecked={values.appliesToGiftLists === "on"}
          />
        </div>
        <TagChoices
          legend={t("admin.discountCodes.categories")}
          hint={t("admin.discountCodes.limitHint")}
          name="categoryIds"
          options={choices.categories.map((category) => ({ id: category.id, label: locale === "en" ? category.nameEn : category.nameIt }))}
          chosen={values.categoryIds ?? []}
        />
        <TagChoices
          legend={t("admin.discountCodes.brands")}
          hint={t("admin.discountCodes.limitHint")}
          name="brandIds"
          options={choices.brands.map((brand) => ({ id: brand.id, label: brand.name }))}
          chosen={values.brandIds ?? []}
        />
        <button type="submit" className="btn-primary">
          {t("admin.discountCodes.save")}
        </button>
      </Form>
      {code && (
        <Form method="post" className="mt-6 border-t border-brand-100 pt-4">
          <input type="hidden" name="intent" value={code.isActive ? "deactivate" : "activate"} />
          <p className="text-muted">{code.isActive ? t("admin.discountCodes.deactivateHint") : t("admin.discountCodes.inactive")}</p>
          <button type="submit" className="btn-secondary mt-2">
            {code.isActive ? t("admin.discountCodes.deactivate") : t("admin.discountCodes.activate")}
          </button>
        </Form>
      )}
    </section>
  );
}

/** Categories or brands a code may be limited to: none ticked, it applies to every product. */
function TagChoices({
  legend,
  hint,
  name,
  options,
  chosen,
}: {
  legend: string;
  hint: string;
  name: string;
  options: { id: number; label: string }[];
  chosen: readonly string[];
}) {
  return (
    <fieldset className="rounded-xl border border-brand-100 bg-white p-4">
      <legend className="px-1 font-bold">{legend}</legend>
      <p className="text-sm text-muted">{hint}</p>
      <div className="mt-2 grid max-h-64 gap-x-4 overflow-y-auto sm:grid-cols-2 lg:grid-cols-3">
        {options.map((option) => (
          <label key={option.id} className="flex min-h-11 items-center gap-2">
            <input type="checkbox" name={name} value={option.id} defaultChecked={chosen.includes(String(option.id))} className="size-5" />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
