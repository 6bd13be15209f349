import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { formatMoney } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { getProductImageUrl } from "#common/media.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField, type InputFieldProps, type TextAreaFieldProps, CheckboxField, SelectField } from "#app/ui/form-field.tsx";
import { formText } from "#server/accounts/form-values.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { parseAdminId, readAdminForm } from "#server/admin/admin-request.ts";
import { listPriceHistory, lowestPriceOfLast30Days } from "#server/admin/price-history.service.ts";
import {
  ColourInput,
  formValues,
  parseProductForm,
  parseWith,
  StockAdjustmentInput,
  VariantInput,
  VariantUpdateInput,
  type FieldErrors,
} from "#server/admin/product-admin.inputs.ts";
import { createProduct, getProductFormValues, getProductStockView, getTaxonomyOptions, updateProduct } from "#server/admin/product-admin.service.ts";
import {
  addColour,
  addProductImage,
  addVariant,
  adjustStock,
  listStockMovements,
  maxAdminImageBytes,
  removeProductImage,
  updateVariant,
} from "#server/admin/product-stock.service.ts";
import { mediaStoreOf } from "#server/media/media-store.ts";
import { shopContext } from "#server/http/context.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { countStockAlertsByVariant, type StockAlertCounts as StockAlertCountsRow } from "#server/stock-alerts/stock-alerts.service.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/product-edit";

const doneCodes = ["created", "saved", "colourAdded", "imageAdded", "imageRemoved", "variantAdded", "variantSaved", "stockAdjusted"] as const;
const newProductValues: Record<string, string> = {
  isPublished: "on",
  vatRatePercent: "22",
  discountPercent: "0",
  personalisationCost: "0,00",
  price: "",
};

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    "stockAlerts.admin",
    "productSafety.admin.productLink",
    "productSpecs.admin.link",
    "bundles.admin.link",
    "loyalty.productFlag",
    "loyalty.productFlagHint",
  ],
} satisfies MessagesHandle;

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const t = getTranslator(locale);
  const options = await getTaxonomyOptions(db, locale);
  const done = doneCodes.find((code) => code === url.searchParams.get("done")) ?? null;
  if (params.id === undefined) {
    return {
      done,
      locale,
      productId: null,
      values: newProductValues,
      options,
      stock: null,
      movements: [],
      prices: [],
      lowestPriceCents: null,
      alerts: {},
      meta: { title: t("admin.products.new"), description: "" },
    };
  }
  const productId = parseAdminId(params.id);
  const values = productId === null ? null : await getProductFormValues(db, productId);
  if (productId === null || !values) throw data(null, { status: 404 });
  const [stock, movements, prices, lowestPriceCents, alerts] = await Promise.all([
    getProductStockView(db, productId),
    listStockMovements(db, productId, 50),
    listPriceHistory(db, productId, 20),
    lowestPriceOfLast30Days(db, productId, new Date()),
    countStockAlertsByVariant(db, productId),
  ]);
  return {
    done,
    locale,
    productId,
    values,
    options,
    stock,
    movements,
    prices,
    lowestPriceCents,
    alerts: Object.fromEntries(alerts),
    meta: { title: `${values.nameIt} · ${t("admin.products.title")}`, description: "" },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

type Failure = { intent: string; errors: FieldErrors; values?: Record<string, string> };
/** What a product field may add to its label, name, value and error. */
type InputOptions = Omit<InputFieldProps, "label" | "name" | "defaultValue" | "error">;
type TextAreaOptions = Omit<TextAreaFieldProps, "label" | "name" | "defaultValue" | "error" | "multiline">;
const fail = (failure: Failure) => data(failure, { status: 400 });

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const services = context.get(shopContext);
  const { db } = services;
  const locale = localeOfPath(url.pathname);
  const productId = params.id === undefined ? null : parseAdminId(params.id);
  if (params.id !== undefined && productId === null) throw data(null, { status: 404 });
  // A picture and the form around it; anything bigger is refused before it is decoded.
  const read = await readAdminForm(request, maxAdminImageBytes + 64 * 1024);
  if (!read.ok) return fail({ intent: "image", errors: { image: "admin.errors.imageTooLarge" } });
  const form = read.form;
  const intent = formText(form, "intent");
  const now = new Date();
  const done = (what: string, id = productId) => redirect(`${localizedHref(`/admin/prodotti/${id}`, locale)}?done=${what}`);
  const notFound = () => {
    throw data(null, { status: 404 });
  };

  if (intent === "save") {
    const parsed = parseProductForm(form);
    if (!parsed.ok) return fail({ intent, errors: parsed.errors, values: parsed.values });
    if (productId === null) {
      const created = await createProduct(db, { input: parsed.input, actorUserId: admin.id, now });
      if (!created.ok)
        return fail({ intent, errors: created.errors, values: formValues(form, Object.keys(newProductValues).concat(Object.keys(parsed.input))) });
      return done("created", created.productId);
    }
    const saved = await updateProduct(db, { productId, input: parsed.input, actorUserId: admin.id, now });
    if (!saved.ok)
      return "notFound" in saved ? notFound() : fail({ intent, errors: saved.errors, values: formValues(form, Object.keys(parsed.input)) });
    return done("saved");
  }
  if (productId === null) return fail({ intent, errors: { form: "admin.errors.invalid" } });

  const file = form.get("image");
  const bytes = file instanceof File && file.size > 0 ? Buffer.from(await file.arrayBuffer()) : null;
  switch (intent) {
    case "colour-add": {
      const parsed = parseWith(ColourInput, formValues(form, ["colour"]));
      if (!parsed.ok) return fail({ intent, errors: parsed.errors, values: parsed.values });
      const added = await addColour(db, { productId, colour: parsed.input.colour, actorUserId: admin.id });
      if (!added) return notFound();
      if (!added.ok) return fail({ intent, errors: added.errors, values: formValues(form, ["colour"]) });
      if (bytes) {
        const image = await addProductImage(db, { productId, colourId: added.id, bytes, media: mediaStoreOf(services.env), actorUserId: admin.id });
        if (image && !image.ok) return fail({ intent, errors: image.errors });
      }
      return done("colourAdded");
    }
    case "image-add": {
      const colourId = parseAdminId(formText(form, "colourId"));
      if (!bytes) return fail({ intent, errors: { image: "admin.errors.imageMissing" } });
      const image = await addProductImage(db, { productId, colourId, bytes, media: mediaStoreOf(services.env), actorUserId: admin.id });
      if (!image) return notFound();
      if (!image.ok) return fail({ intent, errors: image.errors });
      return done("imageAdded");
    }
    case "image-remove": {
      const imageId = parseAdminId(formText(form, "imageId"));
      if (imageId === null || !(await removeProductImage(db, { productId, imageId, media: mediaStoreOf(services.env), actorUserId: admin.id })))
        return notFound();
      return done("imageRemoved");
    }
    case "variant-add": {
      const parsed = parseWith(VariantInput, formValues(form, ["colourId", "size", "sku", "stock", "isPreorder", "preorderDays", "gtin"]));
      if (!parsed.ok) return fail({ intent, errors: parsed.errors, values: parsed.values });
      const added = await addVariant(db, { productId, input: parsed.input, actorUserId: admin.id });
      if (!added) return notFound();
      if (!added.ok)
        return fail({
          intent,
          errors: added.errors,
          values: formValues(form, ["colourId", "size", "sku", "stock", "isPreorder", "preorderDays", "gtin"]),
        });
      return done("variantAdded");
    }
    case "variant-update": {
      const parsed = parseWith(VariantUpdateInput, formValues(form, ["variantId", "sku", "isPreorder", "preorderDays", "gtin"]));
      if (!parsed.ok) return fail({ intent: `${intent}-${formText(form, "variantId")}`, errors: parsed.errors, values: parsed.values });
      const updated = await updateVariant(db, { productId, input: parsed.input, actorUserId: admin.id });
      if (!updated) return notFound();
      if (!updated.ok)
        return fail({
          intent: `${intent}-${parsed.input.variantId}`,
          errors: updated.errors,
          values: formValues(form, ["variantId", "sku", "isPreorder", "preorderDays", "gtin"]),
        });
      return done("variantSaved");
    }
    case "stock-adjust": {
      const parsed = parseWith(StockAdjustmentInput, formValues(form, ["variantId", "delta", "reason"]));
      if (!parsed.ok) return fail({ intent, errors: parsed.errors, values: parsed.values });
      const adjusted = await adjustStock(db, { productId, input: parsed.input, actorUserId: admin.id });
      if (!adjusted) return notFound();
      if (!adjusted.ok) return fail({ intent, errors: adjusted.errors, values: formValues(form, ["variantId", "delta", "reason"]) });
      return done("stockAdjusted");
    }
    default:
      return fail({ intent, errors: { form: "admin.errors.invalid" } });
  }
}

export default function AdminProductEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, productId, options, stock, movements, prices, lowestPriceCents } = loaderData;
  const failure = actionData;
  const errorsFor = (intent: string) => (failure?.intent === intent ? failure.errors : {});
  const saveErrors = errorsFor("save");
  const values = failure?.intent === "save" && failure.values ? failure.values : loaderData.values;
  const err = (errors: FieldErrors, field: string) => (errors[field] ? t(errors[field]) : undefined);
  const title = productId === null ? t("admin.products.new") : values.nameIt;
  const money = (cents: number) => formatMoney(cents, locale);
  const fieldProps = (name: string) => ({ label: t(`admin.product.${name}`), name, defaultValue: values[name] ?? "", error: err(saveErrors, name) });
  const field = (name: string, options: InputOptions = {}) => <TextField {...fieldProps(name)} {...options} />;
  const textArea = (name: string, options: TextAreaOptions) => <TextField multiline {...fieldProps(name)} {...options} />;
  const imageErrors = failure && ["image", "colour-add", "image-add"].includes(failure.intent) ? failure.errors : {};
  // Every change ends in a redirect, a new location: the forms start empty again (a chosen file or
  // colour name left in place would be sent again with the next colour). A refused form keeps its values.
  const { key: locationKey } = useLocation();
  return (
    <section key={locationKey} className="space-y-10">
      <div>
        <Link to={localizedHref("/admin/prodotti", locale)} className="underline">
          ← {t("admin.products.title")}
        </Link>
        <h1 className="mt-2 text-3xl font-bold">{title}</h1>
        {productId !== null && (
          <p className="mt-1">
            <Link to={localizedHref(`/product/${productId}`, locale)} className="underline">
              {t("admin.product.viewInShop")}
            </Link>
            {" · "}
            <Link to={localizedHref(`/admin/prodotti/${productId}/sicurezza`, locale)} className="underline">
              {t("productSafety.admin.productLink")}
            </Link>
            {" · "}
            <Link to={localizedHref(`/admin/prodotti/${productId}/caratteristiche`, locale)} className="underline">
              {t("productSpecs.admin.link")}
            </Link>
            {" · "}
            <Link to={localizedHref(`/admin/prodotti/${productId}/bundle`, locale)} className="underline">
              {t("bundles.admin.link")}
            </Link>
          </p>
        )}
      </div>
      {loaderData.done && <Notice>{t(`admin.done.${loaderData.done}`)}</Notice>}

      <Form
        method="post"
        noValidate
        className="space-y-6 rounded-xl border border-brand-100 bg-white p-4 sm:p-6"
        aria-labelledby="product-fields-title"
      >
        <h2 id="product-fields-title" className="text-2xl font-bold">
          {t("admin.product.fields")}
        </h2>
        {Object.keys(saveErrors).length > 0 && <FormAlert>{t("admin.errors.summary")}</FormAlert>}
        <input type="hidden" name="intent" value="save" />
        <div className="grid gap-4 sm:grid-cols-2">
          {field("sku", { required: true, maxLength: 40 })}
          {field("price", { required: true, inputMode: "decimal", hint: t("admin.product.priceHint") })}
          {field("nameIt", { required: true })}
          {field("nameEn", { required: true })}
          {textArea("shortDescriptionIt", { rows: 3 })}
          {textArea("shortDescriptionEn", { rows: 3 })}
          {textArea("fullDescriptionIt", { rows: 6 })}
          {textArea("fullDescriptionEn", { rows: 6 })}
          {field("discountPercent", { inputMode: "numeric" })}
          {field("offerEndsOn", { type: "date" })}
          {field("vatRatePercent", { inputMode: "numeric" })}
          <SelectField label={t("admin.product.category")} name="category" defaultValue={values.category} error={err(saveErrors, "category")}>
            <option value="">—</option>
            {options.categories.map((category) => (
              <option key={category.slug} value={category.slug}>
                {category.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t("admin.product.subcategory")}
            name="subcategory"
            defaultValue={values.subcategory}
            error={err(saveErrors, "subcategory")}
          >
            <option value="">—</option>
            {options.categories.map((category) => (
              <optgroup key={category.slug} label={category.name}>
                {category.subcategories.map((sub) => (
                  <option key={sub.slug} value={sub.slug}>
                    {sub.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </SelectField>
          {field("brands", { hint: t("admin.product.brandsHint", { brands: options.brands.map((brand) => brand.name).join(", ") }) })}
          {field("related", { hint: t("admin.product.relatedHint") })}
        </div>
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="field-label">{t("admin.product.flags")}</legend>
          <CheckboxField label={t("admin.product.isNew")} name="isNew" defaultChecked={values.isNew === "on"} />
          <CheckboxField label={t("admin.product.isFreeShipping")} name="isFreeShipping" defaultChecked={values.isFreeShipping === "on"} />
          <CheckboxField label={t("admin.product.isOnRequest")} name="isOnRequest" defaultChecked={values.isOnRequest === "on"} />
          <CheckboxField label={t("admin.product.isPublished")} name="isPublished" defaultChecked={values.isPublished === "on"} />
          <div className="sm:col-span-2">
            <CheckboxField label={t("loyalty.productFlag")} name="isLoyaltyExcluded" defaultChecked={values.isLoyaltyExcluded === "on"} />
            {/* After the box: an unticked box sends nothing, and this "off" is then the value read. */}
            <input type="hidden" name="isLoyaltyExcluded" value="off" />
            <p className="text-sm text-muted">{t("loyalty.productFlagHint")}</p>
          </div>
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="field-label">{t("admin.product.sheet")}</legend>
          {field("lengthMm", { inputMode: "numeric" })}
          {field("widthMm", { inputMode: "numeric" })}
          {field("heightMm", { inputMode: "numeric" })}
          {field("weightGrams", { inputMode: "numeric" })}
          {field("materialIt")}
          {field("materialEn")}
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="field-label">{t("admin.product.personalisationTitle")}</legend>
          {textArea("personalisation", { rows: 3, hint: t("admin.product.personalisationHint") })}
          {field("personalisationCost", { inputMode: "decimal" })}
          {field("personalisationDescriptionIt")}
          {field("personalisationDescriptionEn")}
        </fieldset>
        {field("affiliateUrl", { type: "url" })}
        <button type="submit" className="btn-primary px-8 py-3">
          {t("admin.product.save")}
        </button>
      </Form>

      {productId !== null && stock && (
        <>
          {lowestPriceCents !== null && (
            <section aria-labelledby="prices-title" className="rounded-xl border border-brand-100 bg-white p-4 sm:p-6">
              <h2 id="prices-title" className="text-2xl font-bold">
                {t("admin.product.priceHistory")}
              </h2>
              <p className="mt-2">{t("admin.product.lowest30", { price: money(lowestPriceCents) })}</p>
              <ul className="mt-2 text-sm">
                {prices.map((row, index) => (
                  <li key={`${index}:${String(row.recordedAt)}`}>
                    {formatShopDateTime(row.recordedAt, locale)}: {money(row.priceCents)} → {money(row.effectivePriceCents)}
                  </li>
                ))}
              </ul>
            </section>
          )}

          <section aria-labelledby="colours-title" className="space-y-4 rounded-xl border border-brand-100 bg-white p-4 sm:p-6">
            <h2 id="colours-title" className="text-2xl font-bold">
              {t("admin.product.colours")}
            </h2>
            {Object.keys(imageErrors).length > 0 && (
              <FormAlert>
                {Object.values(imageErrors)
                  .map((key) => t(key!))
                  .join(" ")}
              </FormAlert>
            )}
            <ul className="space-y-4">
              {stock.colours.map((colour) => (
                <li key={colour.id} className="rounded-lg border border-brand-100 p-3">
                  <h3 className="font-bold">{colour.colour}</h3>
                  <ul className="mt-2 flex flex-wrap gap-3">
                    {colour.images.map((image) => (
                      <li key={image.id} className="flex flex-col items-center gap-1">
                        <img
                          src={getProductImageUrl(image.storageKey, 160)}
                          alt={`${values.nameIt} - ${colour.colour}`}
                          width={96}
                          height={96}
                          className="size-24 rounded object-cover"
                        />
                        <Form method="post">
                          <input type="hidden" name="intent" value="image-remove" />
                          <input type="hidden" name="imageId" value={image.id} />
                          <button type="submit" className="text-sm underline">
                            {t("admin.product.removeImage")}
                          </button>
                        </Form>
                      </li>
                    ))}
                  </ul>
                  <Form method="post" encType="multipart/form-data" className="mt-3 flex flex-wrap items-end gap-3">
                    <input type="hidden" name="intent" value="image-add" />
                    <input type="hidden" name="colourId" value={colour.id} />
                    <label className="field-label min-w-0 max-w-full flex-1">
                      {t("admin.product.imageFor", { colour: colour.colour })}
                      <input type="file" name="image" accept="image/jpeg,image/png,image/webp,image/avif" className="mt-1 block w-full max-w-full" />
                    </label>
                    <button type="submit" className="btn-secondary">
                      {t("admin.product.upload")}
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
            <Form method="post" encType="multipart/form-data" noValidate className="grid gap-4 sm:grid-cols-3 sm:items-end">
              <input type="hidden" name="intent" value="colour-add" />
              <TextField
                label={t("admin.product.colourName")}
                name="colour"
                required
                error={err(errorsFor("colour-add"), "colour")}
                hint={t("admin.product.colourHint")}
              />
              <label className="field-label min-w-0">
                {t("admin.product.image")}
                <input type="file" name="image" accept="image/jpeg,image/png,image/webp,image/avif" className="mt-1 block w-full max-w-full" />
              </label>
              <button type="submit" className="btn-primary">
                {t("admin.product.addColour")}
              </button>
            </Form>
            <p className="text-sm text-muted">{t("admin.product.imageHint")}</p>
          </section>

          <section aria-labelledby="sizes-title" className="space-y-4 rounded-xl border border-brand-100 bg-white p-4 sm:p-6">
            <h2 id="sizes-title" className="text-2xl font-bold">
              {t("admin.product.sizes")}
            </h2>
            <div className="overflow-x-auto">
              <table className="w-full min-w-[36rem] text-left">
                <caption className="sr-only">{t("admin.product.sizes")}</caption>
                <thead>
                  <tr className="border-b-2 border-brand-200">
                    <th scope="col" className="p-2">
                      {t("admin.product.colour")}
                    </th>
                    <th scope="col" className="p-2">
                      {t("admin.product.size")}
                    </th>
                    <th scope="col" className="p-2">
                      SKU
                    </th>
                    <th scope="col" className="p-2 text-right">
                      {t("admin.product.stock")}
                    </th>
                    <th scope="col" className="p-2">
                      {t("admin.product.preorder")}
                    </th>
                    <th scope="col" className="p-2">
                      {t("stockAlerts.admin.column")}
                    </th>
                    <th scope="col" className="p-2">
                      <span className="sr-only">{t("admin.product.editSize")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {stock.variants.map((variant) => (
                    <tr key={variant.id} className="border-b border-brand-100">
                      <td className="p-2">{variant.colour ?? "—"}</td>
                      <td className="p-2">{variant.size}</td>
                      <td className="p-2 font-mono text-sm whitespace-nowrap">{variant.sku}</td>
                      <td className="p-2 text-right font-bold">{variant.stock}</td>
                      <td className="p-2">{variant.isPreorder ? t("admin.product.preorderDaysValue", { count: variant.preorderDays ?? 0 }) : "—"}</td>
                      <td className="p-2 text-sm whitespace-nowrap">
                        <StockAlertCounts counts={loaderData.alerts[variant.id]} />
                      </td>
                      <td className="p-2 align-top">
                        <VariantUpdateForm
                          variant={variant}
                          errors={errorsFor(`variant-update-${variant.id}`)}
                          values={failure?.intent === `variant-update-${variant.id}` ? (failure.values ?? {}) : null}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="text-sm text-muted">{t("stockAlerts.admin.note")}</p>
            <VariantAddForm
              colours={stock.colours}
              errors={errorsFor("variant-add")}
              values={failure?.intent === "variant-add" ? (failure.values ?? {}) : {}}
            />
            {stock.variants.length > 0 && (
              <Form
                method="post"
                noValidate
                className="grid gap-4 rounded-lg border border-brand-100 p-3 sm:grid-cols-4 sm:items-end"
                aria-labelledby="adjust-title"
              >
                <h3 id="adjust-title" className="font-bold sm:col-span-4">
                  {t("admin.product.adjustTitle")}
                </h3>
                {Object.keys(errorsFor("stock-adjust")).length > 0 && <FormAlert>{t("admin.errors.summary")}</FormAlert>}
                <input type="hidden" name="intent" value="stock-adjust" />
                <SelectField label={t("admin.product.variant")} name="variantId" error={err(errorsFor("stock-adjust"), "variantId")}>
                  {stock.variants.map((variant) => (
                    <option key={variant.id} value={variant.id}>
                      {[variant.colour, variant.size, variant.sku].filter(Boolean).join(" · ")} ({variant.stock})
                    </option>
                  ))}
                </SelectField>
                <TextField
                  label={t("admin.product.delta")}
                  name="delta"
                  inputMode="numeric"
                  required
                  hint={t("admin.product.deltaHint")}
                  error={err(errorsFor("stock-adjust"), "delta")}
                />
                <TextField
                  label={t("admin.product.reason")}
                  name="reason"
                  required
                  maxLength={200}
                  error={err(errorsFor("stock-adjust"), "reason")}
                />
                <button type="submit" className="btn-primary">
                  {t("admin.product.adjust")}
                </button>
              </Form>
            )}
            {movements.length > 0 && (
              <div>
                <h3 className="font-bold">{t("admin.product.movements")}</h3>
                <ul className="mt-2 space-y-1 text-sm">
                  {movements.map((movement) => (
                    <li key={movement.id}>
                      {formatShopDateTime(movement.createdAt, locale)} · {movement.sku} ·{" "}
                      <strong>{movement.delta > 0 ? `+${movement.delta}` : movement.delta}</strong> · {movement.reason}
                      {movement.actorName && ` · ${movement.actorName}`}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </section>
        </>
      )}
    </section>
  );
}

/** SKU and pre-order of one size, folded in its table row; open again when the server refused it. */
function VariantUpdateForm({
  variant,
  errors,
  values,
}: {
  variant: { id: number; colour: string | null; size: string; sku: string; isPreorder: boolean; preorderDays: number | null; gtin: string | null };
  errors: FieldErrors;
  values: Record<string, string> | null;
}) {
  const { t } = useTranslation();
  const err = (field: string) => (errors[field] ? t(errors[field]) : undefined);
  const name = [variant.colour, variant.size].filter(Boolean).join(" · ") || variant.sku;
  return (
    <details open={values !== null} className="min-w-48">
      <summary
        className="flex min-h-11 cursor-pointer items-center font-semibold underline"
        aria-label={t("admin.product.editSizeLabel", { size: name })}
      >
        {t("admin.product.editSize")}
      </summary>
      <Form method="post" noValidate className="mt-2 space-y-3" aria-label={t("admin.product.editSizeLabel", { size: name })}>
        {Object.keys(errors).length > 0 && <FormAlert>{t("admin.errors.summary")}</FormAlert>}
        <input type="hidden" name="intent" value="variant-update" />
        <input type="hidden" name="variantId" value={variant.id} />
        <TextField label="SKU" name="sku" required defaultValue={values?.sku ?? variant.sku} error={err("sku")} />
        <CheckboxField
          label={t("admin.product.preorder")}
          name="isPreorder"
          defaultChecked={values ? values.isPreorder === "on" : variant.isPreorder}
        />
        <TextField
          label={t("admin.product.preorderDays")}
          name="preorderDays"
          inputMode="numeric"
          defaultValue={values?.preorderDays ?? (variant.preorderDays === null ? "" : String(variant.preorderDays))}
          error={err("preorderDays")}
        />
        <TextField
          label={t("admin.product.gtin")}
          name="gtin"
          inputMode="numeric"
          hint={t("admin.product.gtinHint")}
          defaultValue={values?.gtin ?? variant.gtin ?? ""}
          error={err("gtin")}
        />
        <button type="submit" className="btn-primary">
          {t("admin.product.saveSize")}
        </button>
      </Form>
    </details>
  );
}

function VariantAddForm({
  colours,
  errors,
  values,
}: {
  colours: { id: number; colour: string }[];
  errors: FieldErrors;
  values: Record<string, string>;
}) {
  const { t } = useTranslation();
  const err = (field: string) => (errors[field] ? t(errors[field]) : undefined);
  return (
    <Form
      method="post"
      noValidate
      className="grid gap-4 rounded-lg border border-brand-100 p-3 sm:grid-cols-3 sm:items-end"
      aria-labelledby="variant-add-title"
    >
      <h3 id="variant-add-title" className="font-bold sm:col-span-3">
        {t("admin.product.addSize")}
      </h3>
      {Object.keys(errors).length > 0 && <FormAlert>{t("admin.errors.summary")}</FormAlert>}
      <input type="hidden" name="intent" value="variant-add" />
      <SelectField label={t("admin.product.colour")} name="colourId" defaultValue={values.colourId} error={err("colourId")}>
        <option value="">{t("admin.product.noColour")}</option>
        {colours.map((colour) => (
          <option key={colour.id} value={colour.id}>
            {colour.colour}
          </option>
        ))}
      </SelectField>
      <TextField label={t("admin.product.size")} name="size" defaultValue={values.size} hint={t("admin.product.sizeHint")} error={err("size")} />
      <TextField label="SKU" name="sku" required defaultValue={values.sku} error={err("sku")} />
      <TextField label={t("admin.product.stock")} name="stock" inputMode="numeric" required defaultValue={values.stock ?? "0"} error={err("stock")} />
      <CheckboxField label={t("admin.product.preorder")} name="isPreorder" defaultChecked={values.isPreorder === "on"} />
      <TextField
        label={t("admin.product.preorderDays")}
        name="preorderDays"
        inputMode="numeric"
        defaultValue={values.preorderDays}
        error={err("preorderDays")}
      />
      <TextField
        label={t("admin.product.gtin")}
        name="gtin"
        inputMode="numeric"
        hint={t("admin.product.gtinHint")}
        defaultValue={values.gtin}
        error={err("gtin")}
      />
      <button type="submit" className="btn-primary sm:col-span-3">
        {t("admin.product.addSize")}
      </button>
    </Form>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}

/** A size's back-in-stock alerts: waiting for the stock (bold), waiting for a guest's confirmation, sent. */
function StockAlertCounts({ counts }: { counts: StockAlertCountsRow | undefined }) {
  const { t } = useTranslation();
  if (!counts || counts.active + counts.pending + counts.notified === 0) return "—";
  return (
    <ul>
      {counts.active > 0 && <li className="font-bold">{t("stockAlerts.admin.waiting", { count: counts.active })}</li>}
      {counts.pending > 0 && <li>{t("stockAlerts.admin.pending", { count: counts.pending })}</li>}
      {counts.notified > 0 && <li className="text-muted">{t("stockAlerts.admin.sent", { count: counts.notified })}</li>}
    </ul>
  );
}
