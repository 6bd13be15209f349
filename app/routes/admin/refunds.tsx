import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { formatMoney } from "#common/format.ts";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminTable, FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { formText } from "#server/accounts/form-values.ts";
import { listRefundsToPayBack, markRefundPaidBack } from "#server/after-sales/refunds.service.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/refunds";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["afterSales.admin"] } satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const locale = localeOfPath(url.pathname);
  return {
    meta: getPageMetaTexts(locale, "afterSales.admin.toPayBack"),
    locale,
    rows: await listRefundsToPayBack(context.get(shopContext).db),
    paid: url.searchParams.get("fatto") === "1",
  };
}

/** "Segna il bonifico come fatto": the refund is made, mailed and noted in the order's history. */
export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const services = context.get(shopContext);
  const refundId = formText(await request.formData(), "refundId");
  const done = await markRefundPaidBack(services.db, {
    refundId,
    actorUserId: admin.id,
    now: new Date(),
    links: { publicUrl: services.publicUrl, secret: resolveAuthSecret(services.env) },
  });
  if (!done.ok) return data({ error: "afterSales.admin.errors.not-allowed" }, { status: 409 });
  return redirect(`${url.pathname}?fatto=1`);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminRefunds({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, rows, paid } = loaderData;
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("afterSales.admin.toPayBack.title")}</h1>
      <p className="mt-2">{t("afterSales.admin.toPayBack.lead")}</p>
      <div className="mt-4 space-y-3">
        {paid && <Notice>{t("afterSales.admin.done.paid-back")}</Notice>}
        {actionData?.error && <FormAlert>{t(actionData.error)}</FormAlert>}
      </div>
      {rows.length === 0 ? (
        <p className="mt-6">{t("afterSales.admin.toPayBack.empty")}</p>
      ) : (
        <AdminTable
          label={t("afterSales.admin.toPayBack.title")}
          className="mt-6"
          minWidth="min-w-[44rem]"
          columns={[
            { label: t("afterSales.admin.toPayBack.order") },
            { label: t("afterSales.admin.toPayBack.amount"), isNumeric: true },
            { label: t("afterSales.admin.toPayBack.iban") },
            { label: t("afterSales.admin.toPayBack.since") },
            { label: t("afterSales.admin.markPaidBack") },
          ]}
        >
          {rows.map((row) => (
            <tr key={row.id} className="border-b border-brand-50 align-top">
              <td className="p-2">
                <Link to={localizedHref(`/admin/ordini/${row.orderId}`, locale)} className="link font-semibold">
                  {row.orderNumber}
                </Link>{" "}
                · {row.customer}
              </td>
              <td className="p-2 text-right">{formatMoney(row.amountCents, locale)}</td>
              <td className="p-2 break-all">{row.iban}</td>
              <td className="p-2">{formatShopDateTime(row.createdAt, locale)}</td>
              <td className="p-2">
                <Form method="post">
                  <input type="hidden" name="refundId" value={row.id} />
                  <button type="submit" className="btn-primary">
                    {t("afterSales.admin.markPaidBack")}
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
