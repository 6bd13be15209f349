import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { specBounds } from "#common/product-specs.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import { parseAdminId, readAdminForm } from "#server/admin/admin-request.ts";
import { parseProductSpecsForm, productSpecsFormValues } from "#server/catalog/product-specs.inputs.ts";
import { getProductSpecsForm, setProductSpecs } from "#server/catalog/product-specs.service.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/product-specs-edit";

/** The messages this page renders besides the back office's own (app/lib/route-messages.ts). */
export const handle = { messages: ["productSpecs.admin", "productSpecs.errors"] } satisfies MessagesHandle;

function productIdOf(param: string | undefined): number {
  const id = parseAdminId(param);
  if (id === null) throw data(null, { status: 404 });
  return id;
}

/** /admin/prodotti/:id/caratteristiche: a car seat's or stroller's specifications (docs/decisions/0101-product-specifications.md). */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const form = await getProductSpecsForm(db, productIdOf(params.id), locale);
  if (!form) throw data(null, { status: 404 });
  const done = url.searchParams.get("done");
  return {
    meta: getPageMetaTexts(locale, "productSpecs.admin"),
    locale,
    done: done === "saved" || done === "unchanged" ? done : null,
    productId: form.productId,
    name: form.name,
    values: productSpecsFormValues(form.specs, locale),
  };
}

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const productId = productIdOf(params.id);
  const read = await readAdminForm(request, 64 * 1024);
  if (!read.ok) return data({ errors: { kind: "productSpecs.errors.invalid" }, values: noValues }, { status: 400 });
  const values = Object.fromEntries([...read.form.entries()].flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])));
  const parsed = parseProductSpecsForm(read.form);
  if (!parsed.ok) return data({ errors: parsed.errors, values }, { status: 400 });
  const saved = await setProductSpecs(db, { productId, specs: parsed.value, actorUserId: admin.id });
  if (!saved.ok) throw data(null, { status: 404 });
  return redirect(`${localizedHref(`/admin/prodotti/${productId}/caratteristiche`, locale)}?done=${saved.changed ? "saved" : "unchanged"}`);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

const noValues: Record<string, string> = {};

type YesNoField = "hasIsofix" | "rotates360" | "isFromBirth" | "isCarrycotCompatible";

export default function AdminProductSpecsEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, productId, name, done } = loaderData;
  const values = actionData?.values ?? loaderData.values;
  const errors: Record<string, string> = actionData?.errors ?? {};
  const field = (key: string, bounds?: readonly [number, number]) => ({
    label: t(`productSpecs.admin.fields.${key}`),
    name: key,
    defaultValue: values[key] ?? "",
    error: errors[key] ? t(errors[key]) : undefined,
    hint: bounds ? t("productSpecs.admin.bounds", { min: bounds[0], max: bounds[1] }) : undefined,
    inputMode: "decimal" as const,
  });
  const yesNo = (key: YesNoField) => (
    <SelectField
      label={t(`productSpecs.admin.fields.${key}`)}
      name={key}
      defaultValue={values[key] ?? ""}
      error={errors[key] ? t(errors[key]) : undefined}
    >
      <option value="">{t("productSpecs.admin.unknown")}</option>
      <option value="yes">{t("productSpecs.admin.yes")}</option>
      <option value="no">{t("productSpecs.admin.no")}</option>
    </SelectField>
  );
  return (
    // A new page after saving starts from what was saved.
    <section key={`${done ?? ""}${JSON.stringify(loaderData.values)}`}>
      <Link to={localizedHref(`/admin/prodotti/${productId}`, locale)} className="font-semibold text-brand-800 underline">
        {t("productSpecs.admin.back")}
      </Link>
      <h1 className="mt-2 text-3xl font-bold">{t("productSpecs.admin.title", { name })}</h1>
      <p className="mt-2 max-w-prose text-muted">{t("productSpecs.admin.intro")}</p>
      {done && (
        <div className="mt-4">
          <Notice>{t(`productSpecs.admin.${done}`)}</Notice>
        </div>
      )}
      {Object.keys(errors).length > 0 && (
        <div className="mt-4">
          <FormAlert>{t("productSpecs.errors.invalid")}</FormAlert>
        </div>
      )}
      <Form method="post" noValidate className="mt-6 space-y-6 rounded-2xl border border-brand-100 bg-white p-4 sm:p-6">
        <div className="max-w-sm">
          <SelectField
            label={t("productSpecs.admin.kind")}
            name="kind"
            defaultValue={values.kind ?? ""}
            error={errors.kind ? t(errors.kind) : undefined}
          >
            <option value="">{t("productSpecs.admin.kinds.none")}</option>
            <option value="car_seat">{t("productSpecs.admin.kinds.car_seat")}</option>
            <option value="stroller">{t("productSpecs.admin.kinds.stroller")}</option>
          </SelectField>
        </div>
        <fieldset className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <legend className="mb-2 text-lg font-bold">{t("productSpecs.admin.carSeat")}</legend>
          <TextField {...field("statureMinCm", specBounds.statureCm)} />
          <TextField {...field("statureMaxCm", specBounds.statureCm)} />
          <TextField {...field("r44Group")} inputMode="text" />
          {yesNo("hasIsofix")}
          {yesNo("rotates360")}
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <legend className="mb-2 text-lg font-bold">{t("productSpecs.admin.stroller")}</legend>
          <TextField {...field("weightGrams", specBounds.strollerWeightKg)} />
          <TextField {...field("foldedLengthCm", specBounds.foldedCm)} />
          <TextField {...field("foldedWidthCm", specBounds.foldedCm)} />
          <TextField {...field("foldedHeightCm", specBounds.foldedCm)} />
          {yesNo("isFromBirth")}
          {yesNo("isCarrycotCompatible")}
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <legend className="mb-2 text-lg font-bold">{t("productSpecs.admin.both")}</legend>
          <TextField {...field("ageMinMonths", specBounds.ageMonths)} />
          <TextField {...field("ageMaxMonths", specBounds.ageMonths)} />
          <TextField {...field("maxChildWeightGrams", specBounds.childWeightKg)} />
        </fieldset>
        <button type="submit" className="btn-primary">
          {t("productSpecs.admin.save")}
        </button>
      </Form>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
