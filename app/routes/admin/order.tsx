import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { formatMoney } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { readHistoryNote, staffHistoryNoteText } from "#common/order-history.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AddressLines } from "#app/ui/address-lines.tsx";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { OrderInvoicePanel } from "./order-invoice-panel";
import { OrderLinesTable } from "./order-lines-table";
import { carrierChoices, carrierNames } from "#common/carrier-tracking.ts";
import { formFields } from "#server/accounts/form-values.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { AdminOrderAction, getAdminOrder, runAdminOrderAction } from "#server/admin/orders-admin.service.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { paymentProviderNamed } from "#server/payments/payment-provider.ts";
import { issueInvoice, listOrderInvoices } from "#server/invoices/invoice.service.ts";
import type { Route } from "./+types/order";
import { AfterSalesSection, afterSalesDoneKeys } from "./order-after-sales";
import { AfterSalesAction, getAfterSalesDetail, runAfterSalesAction } from "#server/after-sales/after-sales-admin.service.ts";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    "orderSummary",
    "giftCards.summary",
    "loyalty.summaryLine",
    "vouchers.summaryLine",
    "order",
    "orderStatus",
    "product",
    "productPage",
    "saved",
    "delivery",
    "invoices.admin",
    "afterSales",
    "giftCardRefunds.route",
    "exchanges",
    "onlinePayments.methods",
  ],
} satisfies MessagesHandle;

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const detail = await getAdminOrder(db, { orderId: params.orderId, locale });
  if (!detail) throw data(null, { status: 404 });
  const done = url.searchParams.get("done");
  const invoices = await listOrderInvoices(db, detail.order.id);
  const issued = url.searchParams.get("fattura");
  const afterSalesDone = url.searchParams.get("reso");
  return {
    meta: getPageMetaTexts(locale, "admin.order"),
    locale,
    detail,
    afterSales: await getAfterSalesDetail(db, { orderId: detail.order.id, now: shopNowOf(context.get(shopContext), request) }),
    afterSalesDone: afterSalesDone && afterSalesDoneKeys.includes(afterSalesDone) ? afterSalesDone : null,
    done: done && ["status", "mark-paid", "cancel", "refund"].includes(done) ? done : null,
    invoices,
    canIssueInvoice: Boolean(detail.order.invoice && detail.order.payment.paidAt) && !invoices.some((invoice) => invoice.kind === "invoice"),
    issuedInvoice: invoices.find((invoice) => invoice.kind === "invoice" && invoice.number === issued)?.number ?? null,
  };
}

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const form = formFields(await request.formData());
  if (form.intent === "issue-invoice") {
    const issued = await issueInvoice(services.db, { orderId: params.orderId, actorUserId: admin.id, now: new Date() });
    if (!issued.ok) {
      if (issued.error === "order-not-found") throw data(null, { status: 404 });
      return data({ error: `invoices.admin.errors.${issued.error}` }, { status: 409 });
    }
    return redirect(`${localizedHref(`/admin/ordini/${params.orderId}`, locale)}?${new URLSearchParams({ fattura: issued.invoice.number })}`);
  }
  const actionContext = {
    db: services.db,
    actorUserId: admin.id,
    now: new Date(),
    links: { publicUrl: services.publicUrl, secret: resolveAuthSecret(services.env) },
    provider: (name: string) => paymentProviderNamed(services, name),
  };
  // The returns and refunds have their own actions (server/after-sales/after-sales-admin.service.ts).
  if (form.intent?.startsWith("return-") || form.intent?.startsWith("refund-")) {
    const afterSales = AfterSalesAction.safeParse(form);
    if (!afterSales.success) return data({ error: "afterSales.admin.errors.not-found", afterSalesFor: form.returnId ?? null }, { status: 400 });
    const result = await runAfterSalesAction(actionContext, params.orderId, afterSales.data, form);
    if (!result.ok) return data({ error: result.error, afterSalesFor: form.returnId ?? null }, { status: 409 });
    return redirect(`${localizedHref(`/admin/ordini/${params.orderId}`, locale)}?reso=${result.done}#resi`);
  }
  const parsed = AdminOrderAction.safeParse(form);
  if (!parsed.success)
    return data(
      { error: parsed.error.issues[0]?.message.startsWith("admin.") ? parsed.error.issues[0].message : "admin.orders.errors.transition-not-allowed" },
      { status: 400 },
    );
  const result = await runAdminOrderAction(actionContext, params.orderId, parsed.data);
  if (!result.ok) {
    if (result.error === "admin.orders.errors.not-found") throw data(null, { status: 404 });
    return data({ error: result.error }, { status: 409 });
  }
  return redirect(`${localizedHref(`/admin/ordini/${params.orderId}`, locale)}?done=${result.done}`);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, detail, done, invoices, canIssueInvoice, issuedInvoice, afterSales, afterSalesDone } = loaderData;
  const { order } = detail;
  const money = (cents: number) => formatMoney(cents, locale);
  const dateTime = (at: Date | string) => formatShopDateTime(at, locale);
  const address = order.delivery.address;
  const mismatches = order.history.filter((entry) => readHistoryNote(entry.note)?.code === "payment-mismatch");
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{t("order.title", { number: order.number })}</h1>
        <div className="flex flex-wrap gap-3">
          <Link to={localizedHref("/admin/ordini", locale)} className="btn-secondary">
            {t("admin.order.back")}
          </Link>
          <a href={localizedHref(`/admin/ordini/${order.id}/bolla`, locale)} className="btn-secondary" target="_blank" rel="noopener">
            {t("admin.order.packingSlip")}
          </a>
        </div>
      </div>
      <p className="mt-2 text-lg">
        {t("order.status", { status: t(`orderStatus.${order.status}`) })} · {dateTime(order.createdAt)}
      </p>
      <div className="mt-4 space-y-3">
        {done && <Notice>{t(`admin.order.done.${done}`)}</Notice>}
        {issuedInvoice && <Notice>{t("invoices.admin.justIssued", { number: issuedInvoice })}</Notice>}
        {actionData?.error && !("afterSalesFor" in actionData) && <FormAlert>{t(actionData.error)}</FormAlert>}
        {mismatches.length > 0 && (
          <FormAlert>
            <strong>{t("admin.order.paymentMismatchAlert")}</strong>
            {mismatches.map((entry, index) => (
              <span key={index} className="block">
                {staffHistoryNoteText(t, entry.note, locale)}
              </span>
            ))}
          </FormAlert>
        )}
      </div>

      <div className="mt-6 rounded-xl border border-brand-100 bg-white p-4">
        <h2 className="text-xl font-bold">{t("admin.order.actions")}</h2>
        <div className="mt-3 flex flex-wrap items-end gap-3">
          {detail.moves
            .filter((status) => status !== "shipped")
            .map((status) => (
              <Form method="post" key={status}>
                <input type="hidden" name="intent" value="status" />
                <input type="hidden" name="to" value={status} />
                <button type="submit" className="btn-primary">
                  {t("admin.order.moveTo", { status: t(`orderStatus.${status}`) })}
                </button>
              </Form>
            ))}
          {detail.canMarkPaid && (
            <Form method="post">
              <input type="hidden" name="intent" value="mark-paid" />
              <button type="submit" className="btn-primary">
                {t("admin.order.markPaid", { total: money(order.totals.totalCents) })}
              </button>
            </Form>
          )}
          {detail.canCancel && (
            <Form method="post">
              <input type="hidden" name="intent" value="cancel" />
              <button type="submit" className="btn-secondary">
                {t("admin.order.cancel")}
              </button>
            </Form>
          )}
          {detail.canRefund && (
            <Form method="post">
              <input type="hidden" name="intent" value="refund" />
              <button type="submit" className="btn-secondary">
                {detail.cardPaymentRef
                  ? t("admin.order.refundCard", { total: money(order.totals.totalCents) })
                  : t("admin.order.refundRecord", { total: money(order.totals.totalCents) })}
              </button>
            </Form>
          )}
        </div>
        {detail.moves.includes("shipped") && (
          <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <input type="hidden" name="intent" value="status" />
            <input type="hidden" name="to" value="shipped" />
            <SelectField label={t("admin.order.carrier")} name="carrier" defaultValue="brt">
              {carrierChoices.map((choice) => (
                <option key={choice} value={choice}>
                  {choice === "other" ? t("admin.order.carrierOther") : carrierNames[choice]}
                </option>
              ))}
            </SelectField>
            <TextField label={t("admin.order.carrierName")} name="carrierName" maxLength={80} hint={t("admin.order.carrierNameHint")} />
            <TextField label={t("admin.order.tracking")} name="trackingNumber" maxLength={80} />
            <div className="flex items-end">
              <button type="submit" className="btn-primary w-full">
                {t("admin.order.ship")}
              </button>
            </div>
          </Form>
        )}
        {detail.moves.length === 0 && !detail.canMarkPaid && !detail.canCancel && !detail.canRefund && (
          <p className="mt-2">{t("admin.order.noActions")}</p>
        )}
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <div className="rounded-xl border border-brand-100 bg-white p-4">
          <h2 className="text-xl font-bold">{t("admin.order.customer")}</h2>
          <p className="mt-2">
            {order.firstName} {order.lastName}
            <br />
            <a className="underline break-all" href={`mailto:${order.email}`}>
              {order.email}
            </a>
            <br />
            <a className="underline" href={`tel:${order.phone.replace(/\s/g, "")}`}>
              {order.phone}
            </a>
          </p>
        </div>
        <OrderInvoicePanel order={order} documents={invoices} canIssue={canIssueInvoice} locale={locale} />
        <div className="rounded-xl border border-brand-100 bg-white p-4">
          <h2 className="text-xl font-bold">{t("order.delivery.title")}</h2>
          <p className="mt-2 font-semibold">{t(`order.delivery.${order.delivery.method}`)}</p>
          {address ? <AddressLines address={address} withCountry /> : <p>{t("order.delivery.collectAt")}</p>}
          {order.delivery.carrier && (
            <p className="mt-2">
              {t("order.delivery.tracking", { carrier: order.delivery.carrier, tracking: order.delivery.trackingNumber ?? "—" })}
              {order.delivery.trackingUrl && (
                <>
                  {" "}
                  <a href={order.delivery.trackingUrl} className="underline">
                    {t("order.delivery.follow", { carrier: order.delivery.carrier })}
                  </a>
                </>
              )}
            </p>
          )}
        </div>
        <div className="rounded-xl border border-brand-100 bg-white p-4">
          <h2 className="text-xl font-bold">{t("order.payment.title")}</h2>
          <p className="mt-2">
            {order.payment.onlineMethod ? t(`onlinePayments.methods.${order.payment.onlineMethod}`) : t(`order.payment.${order.payment.method}`)} ·{" "}
            {t(`order.payment.status.${order.payment.status}`)}
          </p>
          {order.payment.paidAt && <p>{t("order.payment.paidOn", { date: dateTime(order.payment.paidAt) })}</p>}
          {detail.refundedCents > 0 && <p>{t("admin.order.refunded", { total: money(detail.refundedCents) })}</p>}
        </div>
        <div className="rounded-xl border border-brand-100 bg-white p-4">
          <h2 className="text-xl font-bold">{t("order.history.title")}</h2>
          <ol className="mt-2 space-y-1">
            {order.history.map((entry, index) => (
              <li key={index}>
                <span className="whitespace-nowrap">{dateTime(entry.at)}</span> · <strong>{t(`orderStatus.${entry.status}`)}</strong>
                {entry.note && <span className="text-muted"> · {staffHistoryNoteText(t, entry.note, locale)}</span>}
              </li>
            ))}
          </ol>
        </div>
      </div>

      <OrderLinesTable order={order} locale={locale} />
      <AfterSalesSection
        order={order}
        afterSales={afterSales}
        locale={locale}
        done={afterSalesDone}
        error={actionData && "afterSalesFor" in actionData ? actionData.error : null}
      />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
