import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { formatDate } from "#common/format.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { getManualUrl } from "#common/media.ts";
import { colourName } from "#common/variant-label.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminTable, FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import { parseAdminId, readAdminForm } from "#server/admin/admin-request.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { mediaStoreOf } from "#server/media/media-store.ts";
import { maxManualBytes } from "#server/product-safety/product-safety.ts";
import { formFields, parseSafetyForm, ProductSafetyInput, RecallInput } from "#server/product-safety/product-safety.inputs.ts";
import { getProductSafetyForm, listSafetyContacts, listSafetyWarnings, setProductSafety } from "#server/product-safety/product-safety.service.ts";
import { setProductManual } from "#server/product-safety/product-manual.service.ts";
import {
  listProductRecalls,
  listRecallableVariants,
  listRecallRecipients,
  listRecallSales,
  recallProduct,
  sendRecallNotices,
} from "#server/product-safety/recall.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/product-safety-edit";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = {
  messages: ["productSafety.admin", "productSafety.errors", "productSafety.gaps", "productSafety.recall", "cart.colours"],
} satisfies MessagesHandle;

const intents = ["safety", "manual", "recall", "notify"] as const;
type Intent = (typeof intents)[number];

function productIdOf(param: string | undefined): number {
  const id = parseAdminId(param);
  if (id === null) throw data(null, { status: 404 });
  return id;
}

/** /admin/prodotti/:id/sicurezza: a product's safety data and manual, its recalls, the orders that sold it and who was told. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const productId = productIdOf(params.id);
  const form = await getProductSafetyForm(db, productId);
  if (!form) throw data(null, { status: 404 });
  const [contacts, warnings, variants, recalls] = await Promise.all([
    listSafetyContacts(db),
    listSafetyWarnings(db),
    listRecallableVariants(db, productId),
    listProductRecalls(db, productId, locale),
  ]);
  const recallDetails = await Promise.all(
    recalls.map(async (recall) => ({
      ...recall,
      sales: await listRecallSales(db, recall.id),
      recipients: await listRecallRecipients(db, recall.id),
    })),
  );
  const nameOf = (id: number | null) => contacts.find((contact) => contact.id === id)?.name ?? null;
  const done = url.searchParams.get("done");
  return {
    meta: getPageMetaTexts(locale, "productSafety.admin"),
    locale,
    done: done && ["saved", "manual", "recalled", "sent"].includes(done) ? done : null,
    sent: { sent: Number(url.searchParams.get("sent") ?? 0), alreadyTold: Number(url.searchParams.get("told") ?? 0) },
    product: { ...form, shownManufacturer: nameOf(form.effective.manufacturerId), shownPerson: nameOf(form.effective.responsiblePersonId) },
    contacts: contacts.map(({ id, role, name }) => ({ id, role, name })),
    warnings: warnings.map(({ id, code, textIt, textEn }) => ({ id, code, text: locale === "en" ? textEn : textIt })),
    variants,
    recalls: recallDetails,
  };
}

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const services = context.get(shopContext);
  const { db } = services;
  const locale = localeOfPath(url.pathname);
  const productId = productIdOf(params.id);
  const refused = (intent: Intent | "form", errors: Record<string, string>, values: Record<string, string | string[]> = {}) =>
    data({ intent, errors, values }, { status: 400 });
  const read = await readAdminForm(request, maxManualBytes + 64 * 1024);
  if (!read.ok) return refused("manual", { manual: "productSafety.errors.manualTooLarge" });
  const form = read.form;
  const intent = form.get("intent");
  if (!intents.includes(intent as Intent)) return refused("form", { form: "productSafety.errors.invalid" });
  const pageHref = `${localizedHref(`/admin/prodotti/${productId}/sicurezza`, locale)}`;
  const notFound = () => {
    throw data(null, { status: 404 });
  };

  if (intent === "safety") {
    const fields = formFields(form, ["warningIds"]);
    const parsed = parseSafetyForm(ProductSafetyInput, fields);
    if (!parsed.ok) return refused("safety", parsed.errors, fields);
    const saved = await setProductSafety(db, { productId, input: parsed.value, actorUserId: admin.id });
    if (!saved.ok) return "notFound" in saved ? notFound() : refused("safety", saved.errors, fields);
    return redirect(`${pageHref}?done=saved`);
  }
  if (intent === "manual") {
    const file = form.get("manual");
    if (!(file instanceof File) || file.size === 0) return refused("manual", { manual: "productSafety.errors.required" });
    const saved = await setProductManual(db, {
      productId,
      bytes: new Uint8Array(await file.arrayBuffer()),
      media: mediaStoreOf(services.env),
      actorUserId: admin.id,
    });
    if (!saved) return notFound();
    if (!saved.ok) return refused("manual", { manual: saved.error });
    return redirect(`${pageHref}?done=manual`);
  }
  if (intent === "recall") {
    const fields = formFields(form, ["variantIds"]);
    const parsed = parseSafetyForm(RecallInput, fields);
    if (!parsed.ok) return refused("recall", parsed.errors, fields);
    const recalled = await recallProduct(db, { productId, input: parsed.value, actorUserId: admin.id });
    if (!recalled.ok) return "notFound" in recalled ? notFound() : refused("recall", recalled.errors, fields);
    return redirect(`${pageHref}?done=recalled`);
  }
  const recallId = parseAdminId(typeof form.get("recallId") === "string" ? (form.get("recallId") as string) : undefined);
  const recall = recallId === null ? null : (await listProductRecalls(db, productId, locale)).find((row) => row.id === recallId);
  if (!recall) return refused("form", { form: "productSafety.errors.invalid" });
  const sent = await sendRecallNotices(db, { recallId: recall.id, publicUrl: services.publicUrl, actorUserId: admin.id });
  if (!sent.ok) return notFound();
  return redirect(`${pageHref}?done=sent&sent=${sent.sent}&told=${sent.alreadyTold}`);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminProductSafetyEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, product, contacts, warnings, variants, recalls, done, sent } = loaderData;
  const errorsFor = (intent: Intent) => (actionData?.intent === intent ? actionData.errors : {});
  const message = (key: string | undefined) => (key ? t(key) : undefined);
  const safetyErrors = errorsFor("safety");
  const recallErrors = errorsFor("recall");
  const recallValues = actionData?.intent === "recall" ? actionData.values : {};
  const chosenWarnings = new Set(
    actionData?.intent === "safety" ? ((actionData.values.warningIds as string[] | undefined) ?? []).map(Number) : product.values.warningIds,
  );
  const chosenVariants = new Set(((recallValues.variantIds as string[] | undefined) ?? []).map(Number));
  const text = (name: string) => (typeof recallValues[name] === "string" ? recallValues[name] : "");
  const nameOfColour = (colour: string | null) => (colour ? colourName(t, colour) : null);
  const variantName = (variant: { sku: string; colour: string | null; size: string | null }) =>
    [variant.sku, [nameOfColour(variant.colour), variant.size].filter(Boolean).join(", ")].filter(Boolean).join(" · ");
  const doneText =
    done === "sent"
      ? t("productSafety.admin.recall.sent", sent)
      : done === "recalled"
        ? t("productSafety.admin.recall.done")
        : done === "manual"
          ? t("productSafety.admin.product.manualSaved")
          : done
            ? t("productSafety.admin.saved")
            : null;
  const anyError = actionData && Object.keys(actionData.errors).length > 0;
  return (
    <section>
      <Link to={localizedHref(`/admin/prodotti/${product.productId}`, locale)} className="font-semibold text-brand-800 underline">
        {t("productSafety.admin.product.back")}
      </Link>
      <h1 className="mt-2 text-3xl font-bold">{t("productSafety.admin.product.title", { name: product.name })}</h1>
      {doneText && (
        <div className="mt-4">
          <Notice>
            {doneText}
            {done === "sent" && (
              <>
                {" "}
                <Link to={localizedHref("/admin/posta", locale)} className="underline">
                  {t("productSafety.admin.recall.outboxLink")}
                </Link>
              </>
            )}
          </Notice>
        </div>
      )}
      {anyError && (
        <div className="mt-4">
          <FormAlert>{actionData.errors.form ? t(actionData.errors.form) : t("productSafety.errors.summary")}</FormAlert>
        </div>
      )}
      <p className="mt-4" data-testid="safety-status">
        {product.gaps.length > 0 ? (
          <span className="font-semibold text-coral-700">
            {t("productSafety.gaps.label")}: {product.gaps.map((gap) => t(`productSafety.gaps.${gap}`)).join(", ")}
          </span>
        ) : (
          t("productSafety.admin.product.complete")
        )}
      </p>
      <p className="mt-1 text-sm text-muted">
        {t("productSafety.admin.product.shown", {
          manufacturer: product.shownManufacturer ?? t("productSafety.admin.none"),
          person: product.shownPerson ?? t("productSafety.admin.none"),
        })}
      </p>

      <Form method="post" noValidate className="mt-6 grid gap-4 rounded-2xl border border-brand-100 bg-white p-4 sm:grid-cols-3">
        <input type="hidden" name="intent" value="safety" />
        <SelectField
          label={t("productSafety.admin.fields.manufacturerId")}
          name="manufacturerId"
          defaultValue={String(product.values.manufacturerId ?? "")}
          error={message(safetyErrors.manufacturerId)}
        >
          <option value="">{t("productSafety.admin.fromBrand")}</option>
          {contacts
            .filter((contact) => contact.role === "manufacturer")
            .map((contact) => (
              <option key={contact.id} value={contact.id}>
                {contact.name}
              </option>
            ))}
        </SelectField>
        <SelectField
          label={t("productSafety.admin.fields.responsiblePersonId")}
          name="responsiblePersonId"
          defaultValue={String(product.values.responsiblePersonId ?? "")}
          error={message(safetyErrors.responsiblePersonId)}
        >
          <option value="">{t("productSafety.admin.fromBrand")}</option>
          {contacts
            .filter((contact) => contact.role === "responsible_person")
            .map((contact) => (
              <option key={contact.id} value={contact.id}>
                {contact.name}
              </option>
            ))}
        </SelectField>
        <TextField
          label={t("productSafety.admin.fields.modelNumber")}
          name="modelNumber"
          defaultValue={product.values.modelNumber ?? ""}
          error={message(safetyErrors.modelNumber)}
        />
        <fieldset className="sm:col-span-3">
          <legend className="field-label">{t("productSafety.admin.fields.warningIds")}</legend>
          {safetyErrors.warningIds && <p className="field-error">{t(safetyErrors.warningIds)}</p>}
          <ul className="mt-2 grid max-h-96 gap-1 overflow-y-auto rounded-xl border border-brand-100 p-2 sm:grid-cols-2">
            {warnings.map((warning) => (
              <li key={warning.id}>
                <label className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="warningIds"
                    value={warning.id}
                    defaultChecked={chosenWarnings.has(warning.id)}
                    className="mt-0.5 size-5 shrink-0"
                  />
                  <span>
                    <span className="font-mono text-xs text-muted">{warning.code}</span> {warning.text}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <div>
          <button type="submit" className="btn-primary">
            {t("productSafety.admin.save")}
          </button>
        </div>
      </Form>

      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        className="mt-4 flex flex-wrap items-end gap-3 rounded-2xl border border-brand-100 bg-white p-4"
      >
        <input type="hidden" name="intent" value="manual" />
        <TextField
          label={t("productSafety.admin.fields.manual")}
          name="manual"
          type="file"
          accept="application/pdf"
          error={message(errorsFor("manual").manual)}
        />
        <button type="submit" className="btn-secondary">
          {t("productSafety.admin.product.upload")}
        </button>
        {product.manualStorageKey && (
          <a href={getManualUrl(product.manualStorageKey)} className="link">
            {t("productSafety.admin.product.manualCurrent")}
          </a>
        )}
      </Form>

      <h2 id="recalls" className="mt-10 text-2xl font-bold">
        {t("productSafety.admin.recall.title")}
      </h2>
      <p className="mt-2 max-w-prose">{t("productSafety.admin.recall.intro")}</p>
      {recalls.map((recall) => (
        <article key={recall.id} className="mt-4 rounded-2xl border-2 border-coral-600 bg-white p-4" data-testid="admin-recall">
          <h3 className="text-xl font-bold">{t("productSafety.admin.recall.recalledOn", { date: formatDate(recall.createdAt, locale) })}</h3>
          <p className="mt-1 text-sm">
            <span className="font-semibold">{t("productSafety.recall.variants")}:</span> {recall.variants.map(variantName).join("; ")}
          </p>
          <dl className="mt-2 grid gap-1 text-sm">
            <dt className="font-semibold">{t("productSafety.recall.hazard")}</dt>
            <dd>{recall.hazard}</dd>
            <dt className="font-semibold">{t("productSafety.recall.whatToDo")}</dt>
            <dd>{recall.whatToDo}</dd>
            <dt className="font-semibold">{t("productSafety.recall.remedy")}</dt>
            <dd>{recall.remedy}</dd>
          </dl>
          <h4 className="mt-4 font-bold">{t("productSafety.admin.recall.sales")}</h4>
          {recall.sales.length === 0 ? (
            <p className="text-sm">{t("productSafety.admin.recall.noSales")}</p>
          ) : (
            <AdminTable
              label={t("productSafety.admin.recall.sales")}
              className="mt-2"
              minWidth="min-w-[40rem]"
              columns={[
                { label: t("productSafety.admin.recall.order") },
                { label: "SKU" },
                { label: t("productSafety.admin.recall.quantity"), isNumeric: true },
                { label: t("productSafety.admin.recall.buyer") },
              ]}
            >
              {recall.sales.map((sale, index) => (
                <tr key={`${sale.orderId}-${sale.sku}-${index}`} className="border-b border-brand-100 align-top">
                  <td className="p-2">
                    <Link to={localizedHref(`/admin/ordini/${sale.orderId}`, locale)} className="underline">
                      {sale.orderNumber}
                    </Link>
                  </td>
                  <td className="p-2 font-mono text-sm">{sale.sku}</td>
                  <td className="p-2 text-right">{sale.quantity}</td>
                  <td className="p-2">
                    {sale.buyerName} · {sale.buyerEmail} ({t(`productSafety.admin.recall.kinds.${sale.buyerKind}`)})
                    {sale.owner && (
                      <span className="block text-sm text-muted">
                        {t("productSafety.admin.recall.kinds.gift-list-owner")}: {sale.owner.name} · {sale.owner.email}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </AdminTable>
          )}
          {recall.recipients.length > 0 && (
            <>
              <h4 className="mt-4 font-bold">{t("productSafety.admin.recall.recipients")}</h4>
              <AdminTable
                label={t("productSafety.admin.recall.recipients")}
                className="mt-2"
                minWidth="min-w-[40rem]"
                columns={[
                  { label: t("productSafety.admin.fields.email") },
                  { label: t("productSafety.admin.recall.buyer") },
                  { label: t("productSafety.admin.recall.notifiedAt") },
                ]}
              >
                {recall.recipients.map((recipient) => (
                  <tr key={recipient.email} className="border-b border-brand-100 align-top" data-testid="recall-recipient">
                    <td className="p-2 break-all">{recipient.email}</td>
                    <td className="p-2">
                      {recipient.name} ({recipient.kinds.map((kind) => t(`productSafety.admin.recall.kinds.${kind}`)).join(", ")})
                    </td>
                    <td className="p-2">
                      {recipient.notifiedAt ? formatShopDateTime(recipient.notifiedAt, locale) : t("productSafety.admin.recall.notYet")}
                    </td>
                  </tr>
                ))}
              </AdminTable>
              <Form method="post" className="mt-3">
                <input type="hidden" name="intent" value="notify" />
                <input type="hidden" name="recallId" value={recall.id} />
                <button type="submit" className="btn-primary">
                  {t("productSafety.admin.recall.send")}
                </button>
              </Form>
            </>
          )}
        </article>
      ))}

      <Form method="post" noValidate className="mt-6 grid gap-4 rounded-2xl border border-brand-100 bg-white p-4 sm:grid-cols-2">
        <h3 className="text-xl font-bold sm:col-span-2">{t("productSafety.admin.recall.new")}</h3>
        <input type="hidden" name="intent" value="recall" />
        <fieldset className="sm:col-span-2">
          <legend className="field-label">{t("productSafety.admin.recall.variantsLegend")}</legend>
          {recallErrors.variantIds && <p className="field-error">{t(recallErrors.variantIds)}</p>}
          <ul className="mt-2 grid gap-1 sm:grid-cols-2">
            {variants.map((variant) => (
              <li key={variant.id}>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="variantIds" value={variant.id} defaultChecked={chosenVariants.has(variant.id)} className="size-5" />
                  {variantName(variant)}
                  {variant.isRecalled && <span className="text-coral-700">({t("productSafety.admin.recall.alreadyRecalled")})</span>}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {(["hazardIt", "hazardEn", "whatToDoIt", "whatToDoEn", "remedyIt", "remedyEn"] as const).map((name) => (
          <TextField
            key={name}
            label={t(`productSafety.admin.recall.fields.${name}`)}
            name={name}
            multiline
            rows={3}
            required
            defaultValue={text(name)}
            error={message(recallErrors[name])}
          />
        ))}
        <div>
          <button type="submit" className="btn-coral">
            {t("productSafety.admin.recall.submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
