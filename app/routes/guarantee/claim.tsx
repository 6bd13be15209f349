import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useLocation, useNavigation } from "react-router";
import { formatDate } from "#common/format.ts";
import { localeOfPath, localizedHref, type Locale } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { getOrderClaims, openGuaranteeClaim } from "#server/guarantee/claims.service.ts";
import { maxClaimPhotos } from "#common/guarantee-claims.ts";
import { formatSize, isOneSize } from "#common/sizes.ts";
import { colourName } from "#common/variant-label.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { claimantOf, claimLinksOf } from "./guarantee-request.server";
import type { Route } from "./+types/claim";

export const handle = { messages: ["guaranteeClaims", "cart.colours"] } satisfies MessagesHandle;

/** The buyer's claims for one order and the form to open one; anyone else gets the 404 of a missing page. */
export async function loader({ params, url, request, context }: Route.LoaderArgs) {
  const { orderId, proof } = await claimantOf(context, request, url, params);
  const page = await getOrderClaims(context.get(shopContext).db, { orderId, proof });
  if (!page) throw data(null, { status: 404 });
  const sent = Number(url.searchParams.get("inviata"));
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "guaranteeClaims"),
    ...page,
    sent: page.claims.some((claim) => claim.id === sent) ? sent : null,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [...pageMeta(matches, loaderData?.meta), { name: "robots", content: "noindex" }];

export async function action({ params, url, request, context }: Route.ActionArgs) {
  const { orderId, proof } = await claimantOf(context, request, url, params);
  const form = await request.formData();
  const photos = await Promise.all(
    form
      .getAll("photos")
      .filter((value): value is File => value instanceof File && value.size > 0)
      .map(async (file) => Buffer.from(await file.arrayBuffer())),
  );
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const input = { orderLineId: text("orderLineId"), description: text("description") };
  const result = await openGuaranteeClaim(context.get(shopContext).db, {
    orderId,
    proof,
    input,
    photos,
    locale: localeOfPath(url.pathname),
    links: claimLinksOf(context),
  });
  if (result.ok) {
    const back = new URL(url);
    back.searchParams.set("inviata", String(result.claimId));
    return redirect(`${back.pathname}${back.search}`, 303);
  }
  if (result.error === "not-found") throw data(null, { status: 404 });
  return data(
    {
      error: result.error,
      params: "params" in result ? result.params : undefined,
      field: "field" in result ? result.field : undefined,
      values: input,
    },
    { status: 400 },
  );
}

function Alert({ children }: { children: string }) {
  return (
    <p role="alert" className="rounded-xl border-2 border-coral-600 bg-coral-50 p-4 font-semibold text-coral-700">
      {children}
    </p>
  );
}

export default function GuaranteeClaimPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const { pathname, search } = useLocation();
  const locale: Locale = localeOfPath(pathname);
  const token = new URLSearchParams(search).get("t");
  const withToken = (path: string) => `${localizedHref(path, locale)}${token ? `?t=${encodeURIComponent(token)}` : ""}`;
  const { order, deliveredAt, guaranteeEndsAt, canClaim, lines, claims, sent } = loaderData;
  const fieldError = (field: string) => (actionData?.field === field ? t(actionData.error, actionData.params ?? {}) : undefined);
  const formError = actionData && !actionData.field ? t(actionData.error, actionData.params ?? {}) : null;
  return (
    <>
      <PageHeader title={t("guaranteeClaims.title", { number: order.number })}>
        <p>{t("guaranteeClaims.lead")}</p>
      </PageHeader>
      <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
        {sent && (
          <p role="status" className="rounded-xl border-2 border-brand-600 bg-brand-50 p-4 font-semibold text-brand-800">
            {t("guaranteeClaims.form.sent", { id: sent })}
          </p>
        )}
        {formError && <Alert>{formError}</Alert>}
        {!deliveredAt ? (
          <Alert>{t("guaranteeClaims.errors.notDelivered")}</Alert>
        ) : canClaim ? (
          <section aria-labelledby="claim-form-title" className="rounded-2xl bg-white p-5 shadow-card">
            <h2 id="claim-form-title" className="text-xl font-bold">
              {t("guaranteeClaims.form.title")}
            </h2>
            <p className="mt-1 text-sm text-muted">
              {t("guaranteeClaims.deliveredOn", { date: formatDate(deliveredAt, locale), until: formatDate(guaranteeEndsAt!, locale) })}
            </p>
            {/* A new key after each claim sent: the fields start empty again. */}
            <Form key={sent ?? "new"} method="post" encType="multipart/form-data" className="mt-4 space-y-5" noValidate>
              <SelectField
                label={t("guaranteeClaims.form.item")}
                name="orderLineId"
                defaultValue={actionData?.values.orderLineId ?? ""}
                error={fieldError("orderLineId")}
              >
                <option value="">{t("guaranteeClaims.form.chooseItem")}</option>
                {lines.map((line) => (
                  <option key={line.id} value={line.id} disabled={line.hasOpenClaim}>
                    {[line.name, line.colour && colourName(t, line.colour), line.size && !isOneSize(line.size) && formatSize(line.size)]
                      .filter(Boolean)
                      .join(" – ")}
                    {line.hasOpenClaim ? ` (${t("guaranteeClaims.alreadyOpen")})` : ""}
                  </option>
                ))}
              </SelectField>
              <TextField
                multiline
                rows={5}
                label={t("guaranteeClaims.form.description")}
                name="description"
                required
                maxLength={2000}
                defaultValue={actionData?.values.description ?? ""}
                hint={t("guaranteeClaims.form.descriptionHint")}
                error={fieldError("description")}
              />
              <PhotosField error={fieldError("photos")} />
              <button type="submit" className="btn-primary px-8 py-3 text-base" disabled={busy}>
                {busy ? t("guaranteeClaims.form.submitting") : t("guaranteeClaims.form.submit")}
              </button>
            </Form>
          </section>
        ) : (
          <Alert>
            {t("guaranteeClaims.errors.expired", { deliveredOn: formatDate(deliveredAt, locale), until: formatDate(guaranteeEndsAt!, locale) })}
          </Alert>
        )}
        <section aria-labelledby="claims-title" className="space-y-4">
          <h2 id="claims-title" className="text-xl font-bold">
            {t("guaranteeClaims.yourClaims")}
          </h2>
          {claims.length === 0 && <p>{t("guaranteeClaims.noClaims")}</p>}
          {claims.map((claim) => (
            <article key={claim.id} className="rounded-2xl bg-white p-5 shadow-card" aria-labelledby={`claim-${claim.id}`}>
              <h3 id={`claim-${claim.id}`} className="font-bold">
                {t("guaranteeClaims.claimTitle", { id: claim.id, item: claim.item })}
              </h3>
              <p className="mt-1 text-sm">
                <span className="rounded-full bg-brand-50 px-3 py-1 font-semibold text-brand-800">{t(`guaranteeClaims.status.${claim.status}`)}</span>{" "}
                <span className="text-muted">{t("guaranteeClaims.openedOn", { date: formatDate(claim.createdAt, locale) })}</span>
              </p>
              <p className="mt-3 whitespace-pre-line">{claim.description}</p>
              {claim.staffNote && (
                <div className="mt-3 rounded-xl bg-brand-50 p-3">
                  <p className="text-sm font-semibold">{t("guaranteeClaims.staffNote")}</p>
                  <p className="whitespace-pre-line">{claim.staffNote}</p>
                </div>
              )}
              {claim.photoIds.length > 0 && (
                <ul className="mt-3 flex flex-wrap gap-2">
                  {claim.photoIds.map((photoId, index) => (
                    <li key={photoId}>
                      <a href={withToken(`/ordine/${order.id}/garanzia/foto/${photoId}`)}>
                        <img
                          src={withToken(`/ordine/${order.id}/garanzia/foto/${photoId}`)}
                          alt={t("guaranteeClaims.photoAlt", { n: index + 1, id: claim.id })}
                          width={96}
                          height={96}
                          loading="lazy"
                          className="size-24 rounded-lg object-cover"
                        />
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </article>
          ))}
        </section>
        <Link to={withToken(`/ordine/${order.id}`)} className="btn-secondary inline-block">
          {t("guaranteeClaims.backToOrder")}
        </Link>
      </div>
    </>
  );
}

function PhotosField({ error }: { error?: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <label htmlFor="claim-photos" className="field-label">
        {t("guaranteeClaims.form.photos")}
      </label>
      <input
        id="claim-photos"
        type="file"
        name="photos"
        multiple
        accept="image/jpeg,image/png,image/webp,image/heic,image/heif"
        data-max-files={maxClaimPhotos}
        className="field-input"
        aria-describedby={`claim-photos-hint${error ? " claim-photos-error" : ""}`}
        aria-invalid={error ? true : undefined}
      />
      <p id="claim-photos-hint" className="mt-1 text-sm text-muted">
        {t("guaranteeClaims.form.photosHint")}
      </p>
      {error && (
        <p id="claim-photos-error" className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
