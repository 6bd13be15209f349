import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { colourName } from "#common/variant-label.ts";
import { isOneSize } from "#common/sizes.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import { parseAdminId, readAdminForm } from "#server/admin/admin-request.ts";
import { formatEuroInput, parseEuroCents } from "#server/admin/product-admin.inputs.ts";
import { getBundleForm, matchOptions, saveBundle } from "#server/bundles/bundle-admin.service.ts";
import { BundleInput } from "#server/bundles/bundle.inputs.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/bundle-edit";

/** The messages this page renders besides the back office's own (app/lib/route-messages.ts). */
export const handle = { messages: ["bundles.admin", "bundles.errors", "cart.colours"] } satisfies MessagesHandle;

/** Rows of parts the form offers; a bundle of more is rare in a baby shop. */
const partRows = 6;

function productIdOf(param: string | undefined): number {
  const id = parseAdminId(param);
  if (id === null) throw data(null, { status: 404 });
  return id;
}

/** /admin/prodotti/:id/bundle: the product as a bundle of other products (docs/decisions/0100-bundles.md). */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const form = await getBundleForm(db, productIdOf(params.id));
  if (!form) throw data(null, { status: 404 });
  // Written here as the form shows euros ("899,00"): the money helpers are the server's.
  const fixedPriceInput = form.bundle?.fixedPriceCents ? formatEuroInput(form.bundle.fixedPriceCents) : "";
  return { meta: getPageMetaTexts(locale, "bundles.admin"), locale, form, fixedPriceInput, saved: url.searchParams.get("done") === "saved" };
}

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const productId = productIdOf(params.id);
  const refused = (error: string) => data({ error }, { status: 400 });
  const read = await readAdminForm(request, 64 * 1024);
  if (!read.ok) return refused("bundles.errors.invalid");
  const field = (name: string) => {
    const value = read.form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  const parts = Array.from({ length: partRows }, (_, index) => ({
    productId: field(`part.${index}.productId`),
    quantity: field(`part.${index}.quantity`) || "1",
  })).filter((part) => part.productId !== "");
  const fixed = field("priceRule") === "fixed" ? parseEuroCents(field("fixedPrice")) : null;
  if (fixed && !fixed.ok) return refused("bundles.errors.priceRequired");
  const chosen = new Map<string, number>();
  for (const [name, value] of read.form) {
    const match = /^option\.(\d+)\.(\d+)$/.exec(name);
    if (match && typeof value === "string" && /^\d{1,9}$/.test(value)) chosen.set(`${match[1]}.${match[2]}`, Number(value));
  }
  const partIds = parts.map((part) => Number(part.productId)).filter((id) => Number.isSafeInteger(id) && id > 0);
  const options = partIds.length === parts.length ? await matchOptions(db, { productId, partProductIds: partIds, chosen }) : [];
  if (options.some((option) => option.partVariantIds.includes(null))) return refused("bundles.errors.optionParts");
  const parsed = BundleInput.safeParse({
    productId,
    priceRule: field("priceRule"),
    fixedPriceCents: fixed?.ok ? fixed.cents : null,
    percentOff: field("percentOff") || "0",
    parts,
    options,
    isPublished: field("isPublished") === "on",
  });
  if (!parsed.success) {
    const message = parsed.error.issues.find((issue) => issue.message.startsWith("bundles.errors."))?.message;
    return refused(message ?? "bundles.errors.invalid");
  }
  const saved = await saveBundle(db, { input: parsed.data, actorUserId: admin.id });
  if (!saved.ok) return refused(`bundles.errors.${saved.error}`);
  return redirect(`${localizedHref(`/admin/prodotti/${productId}/bundle`, locale)}?done=saved`);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminBundleEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, form, fixedPriceInput, saved } = loaderData;
  const variantLabel = (variant: { colour: string | null; size: string }) =>
    [variant.colour ? colourName(t, variant.colour) : null, isOneSize(variant.size) ? null : variant.size].filter(Boolean).join(", ") ||
    t("bundles.admin.oneVariant");
  return (
    <section>
      <Link to={localizedHref(`/admin/prodotti/${form.product.id}`, locale)} className="font-semibold text-brand-800 underline">
        {t("bundles.admin.back")}
      </Link>
      <h1 className="mt-2 text-3xl font-bold">{t("bundles.admin.title", { name: form.product.name })}</h1>
      <p className="mt-2 max-w-prose text-muted">{t("bundles.admin.intro")}</p>
      {saved && (
        <div className="mt-4">
          <Notice>{t("bundles.admin.saved")}</Notice>
        </div>
      )}
      {actionData?.error && (
        <div className="mt-4">
          <FormAlert>{t(actionData.error)}</FormAlert>
        </div>
      )}
      <Form method="post" className="mt-6 grid max-w-3xl gap-6">
        <fieldset className="grid gap-3 sm:grid-cols-3">
          <legend className="field-label">{t("bundles.admin.price")}</legend>
          <SelectField label={t("bundles.admin.rule")} name="priceRule" defaultValue={form.bundle?.priceRule ?? "fixed"}>
            <option value="fixed">{t("bundles.admin.fixed")}</option>
            <option value="percent_off">{t("bundles.admin.percentOff")}</option>
          </SelectField>
          <TextField label={t("bundles.admin.fixedPrice")} name="fixedPrice" inputMode="decimal" defaultValue={fixedPriceInput} />
          <TextField label={t("bundles.admin.percent")} name="percentOff" inputMode="numeric" defaultValue={String(form.bundle?.percentOff ?? 0)} />
        </fieldset>
        <fieldset className="grid gap-3">
          <legend className="field-label">{t("bundles.admin.parts")}</legend>
          <p className="text-sm text-muted">{t("bundles.admin.partsHint")}</p>
          {Array.from({ length: partRows }, (_, index) => {
            const part = form.parts[index];
            return (
              <div key={index} className="grid grid-cols-[1fr_8rem] gap-3">
                <TextField
                  label={t("bundles.admin.partProduct", { number: index + 1 })}
                  hint={part?.name}
                  name={`part.${index}.productId`}
                  inputMode="numeric"
                  defaultValue={part ? String(part.productId) : ""}
                />
                <TextField
                  label={t("bundles.admin.quantity")}
                  name={`part.${index}.quantity`}
                  inputMode="numeric"
                  defaultValue={String(part?.quantity ?? 1)}
                />
              </div>
            );
          })}
        </fieldset>
        {form.parts.length > 0 && (
          <fieldset className="grid gap-4">
            <legend className="field-label">{t("bundles.admin.combinations")}</legend>
            {form.combinations.map((combination) => (
              <div key={combination.id} className="grid gap-3 rounded-lg border border-brand-100 p-3 sm:grid-cols-2">
                <p className="font-semibold sm:col-span-2">{variantLabel(combination)}</p>
                {form.parts.map((part, index) => (
                  <SelectField
                    key={part.id}
                    label={part.name}
                    name={`option.${combination.id}.${index}`}
                    defaultValue={String(part.chosen[combination.id] ?? "")}
                  >
                    {part.variants.map((variant) => (
                      <option key={variant.id} value={variant.id}>
                        {variantLabel(variant)}
                      </option>
                    ))}
                  </SelectField>
                ))}
              </div>
            ))}
          </fieldset>
        )}
        <label className="flex items-center gap-2">
          <input type="checkbox" name="isPublished" defaultChecked />
          {t("bundles.admin.publish")}
        </label>
        <div>
          <button type="submit" className="btn-primary">
            {t("bundles.admin.save")}
          </button>
        </div>
      </Form>
    </section>
  );
}

export const ErrorBoundary = AdminErrorBoundary;
