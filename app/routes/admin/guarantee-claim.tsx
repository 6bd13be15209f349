import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { formatDate } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import { formFields } from "#server/accounts/form-values.ts";
import { changeGuaranteeClaimStatus, getGuaranteeClaim } from "#server/guarantee/claims.service.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { claimLinksOf } from "#app/routes/guarantee/guarantee-request.server.ts";
import type { Route } from "./+types/guarantee-claim";

export const handle = {
  messages: ["guaranteeClaims.admin", "guaranteeClaims.status", "guaranteeClaims.errors", "guaranteeClaims.photoAlt"],
} satisfies MessagesHandle;

const Params = z.object({ claimId: z.coerce.number().int().positive().max(2_147_483_647) });

function claimIdOf(params: unknown): number {
  const parsed = Params.safeParse(params);
  if (!parsed.success) throw data(null, { status: 404 });
  return parsed.data.claimId;
}

/** /admin/garanzia/:claimId: the claim, its photos and history, and the next status with a message for the customer. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const detail = await getGuaranteeClaim(context.get(shopContext).db, claimIdOf(params));
  if (!detail) throw data(null, { status: 404 });
  return { meta: getPageMetaTexts(localeOfPath(url.pathname), "guaranteeClaims.admin"), ...detail, saved: url.searchParams.get("saved") === "1" };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const claimId = claimIdOf(params);
  const fields = formFields(await request.formData());
  const result = await changeGuaranteeClaimStatus(context.get(shopContext).db, {
    claimId,
    input: { status: fields.status, note: (fields.note ?? "").slice(0, 5000) },
    actorUserId: admin.id,
    links: claimLinksOf(context),
  });
  if (result.ok) return redirect(`${url.pathname}?saved=1`, 303);
  if (result.error === "not-found") throw data(null, { status: 404 });
  return data({ error: result.error, note: fields.note ?? "" }, { status: 400 });
}

export default function AdminGuaranteeClaim({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const { claim, order, deliveredAt, guaranteeEndsAt, history, nextStatuses, saved } = loaderData;
  return (
    <section className="space-y-6">
      <Link to={localizedHref("/admin/garanzia", locale)} className="btn-secondary inline-block">
        {t("guaranteeClaims.admin.back")}
      </Link>
      <h1 className="text-3xl font-bold">{t("guaranteeClaims.admin.detailTitle", { id: claim.id })}</h1>
      {saved && !actionData && <Notice>{t("guaranteeClaims.admin.saved")}</Notice>}
      <dl className="grid gap-2 rounded-xl border border-brand-100 bg-white p-4 sm:grid-cols-[12rem_1fr]">
        <dt className="font-semibold">{t("guaranteeClaims.admin.columns.status")}</dt>
        <dd>{t(`guaranteeClaims.status.${claim.status}`)}</dd>
        <dt className="font-semibold">{t("guaranteeClaims.admin.columns.order")}</dt>
        <dd>
          <Link to={localizedHref(`/admin/ordini/${order.id}`, locale)} className="underline">
            {order.number}
          </Link>
          {deliveredAt && guaranteeEndsAt && (
            <span className="block text-sm text-muted">
              {t("guaranteeClaims.admin.deliveredOn", { date: formatDate(deliveredAt, locale), until: formatDate(guaranteeEndsAt, locale) })}
            </span>
          )}
        </dd>
        <dt className="font-semibold">{t("guaranteeClaims.admin.columns.customer")}</dt>
        <dd className="break-all">
          {order.firstName} {order.lastName} · {order.email} · {order.phone}
        </dd>
        <dt className="font-semibold">{t("guaranteeClaims.admin.columns.item")}</dt>
        <dd>{claim.item}</dd>
        <dt className="font-semibold">{t("guaranteeClaims.admin.columns.createdAt")}</dt>
        <dd>{formatShopDateTime(claim.createdAt, locale)}</dd>
      </dl>
      <section aria-labelledby="claim-description" className="rounded-xl border border-brand-100 bg-white p-4">
        <h2 id="claim-description" className="text-xl font-bold">
          {t("guaranteeClaims.admin.description")}
        </h2>
        <p className="mt-2 whitespace-pre-line">{claim.description}</p>
      </section>
      <section aria-labelledby="claim-photos" className="rounded-xl border border-brand-100 bg-white p-4">
        <h2 id="claim-photos" className="text-xl font-bold">
          {t("guaranteeClaims.admin.photos")}
        </h2>
        {claim.photoIds.length === 0 ? (
          <p className="mt-2">{t("guaranteeClaims.admin.noPhotos")}</p>
        ) : (
          <ul className="mt-2 grid gap-3 sm:grid-cols-2">
            {claim.photoIds.map((photoId, index) => (
              <li key={photoId}>
                <a href={localizedHref(`/ordine/${order.id}/garanzia/foto/${photoId}`, locale)}>
                  <img
                    src={localizedHref(`/ordine/${order.id}/garanzia/foto/${photoId}`, locale)}
                    alt={t("guaranteeClaims.photoAlt", { n: index + 1, id: claim.id })}
                    loading="lazy"
                    className="w-full rounded-lg"
                  />
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="claim-history" className="rounded-xl border border-brand-100 bg-white p-4">
        <h2 id="claim-history" className="text-xl font-bold">
          {t("guaranteeClaims.admin.history")}
        </h2>
        <ol className="mt-2 space-y-2">
          {history.map((row, index) => (
            <li key={index}>
              <span className="font-semibold">{formatShopDateTime(row.createdAt, locale)}</span>{" "}
              {row.fromStatus
                ? t("guaranteeClaims.admin.historyRow", {
                    from: t(`guaranteeClaims.status.${row.fromStatus}`),
                    to: t(`guaranteeClaims.status.${row.toStatus}`),
                  })
                : t(`guaranteeClaims.status.${row.toStatus}`)}
              {row.note && <span className="block whitespace-pre-line text-sm text-muted">{row.note}</span>}
            </li>
          ))}
        </ol>
      </section>
      {nextStatuses.length === 0 ? (
        <Notice>{t("guaranteeClaims.admin.finished")}</Notice>
      ) : (
        // Keyed by the status: once a step is saved, the next one starts with an empty message.
        <Form key={claim.status} method="post" className="space-y-4 rounded-xl border border-brand-100 bg-white p-4" aria-labelledby="claim-change">
          <h2 id="claim-change" className="text-xl font-bold">
            {t("guaranteeClaims.admin.changeStatus")}
          </h2>
          {actionData?.error && <FormAlert>{t(actionData.error)}</FormAlert>}
          <SelectField label={t("guaranteeClaims.admin.newStatus")} name="status" defaultValue={nextStatuses[0]}>
            {nextStatuses.map((status) => (
              <option key={status} value={status}>
                {t(`guaranteeClaims.status.${status}`)}
              </option>
            ))}
          </SelectField>
          <TextField multiline rows={4} maxLength={2000} label={t("guaranteeClaims.admin.note")} name="note" defaultValue={actionData?.note ?? ""} />
          <button type="submit" className="btn-primary">
            {t("guaranteeClaims.admin.save")}
          </button>
        </Form>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
