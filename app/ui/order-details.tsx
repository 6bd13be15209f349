import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, useLocation } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import type { Locale } from "#common/locale.ts";
import { customerHistoryNoteText, isStaffOnlyHistoryNote } from "#common/order-history.ts";
import type { OrderView } from "#server/orders/order-view.service.ts";
import { postalAddress } from "#common/shop-contacts.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { OpeningHoursList } from "./opening-hours-list";
import type { ShopIdentity } from "#app/lib/root-data.ts";
import { DeliveryEstimateText } from "./delivery-promise";
import { useHydrated } from "./use-hydrated";

/** "12 mar 2026, 10:42" in the shop's time zone. */
function formatDateTime(at: Date | string, locale: Locale): string {
  return formatShopDateTime(at, locale, { dateStyle: "medium", timeStyle: "short" });
}

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl bg-white p-5 shadow-card sm:p-6">
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** Home delivery address, or the shop's address and hours for collection; tracking once shipped. */
export function OrderDelivery({ order, shop }: { order: OrderView; shop: ShopIdentity }) {
  const { t } = useTranslation();
  const { delivery } = order;
  return (
    <Panel id="order-delivery-title" title={t("order.delivery.title")}>
      <p className="font-semibold">{delivery.groupGiftContribution ? t("giftLists.group.badge") : t(`order.delivery.${delivery.method}`)}</p>
      {delivery.estimate && (
        <p className="mt-1 font-semibold text-brand-800" data-testid="delivery-estimate">
          <DeliveryEstimateText estimate={delivery.estimate} today={null} />
        </p>
      )}
      {delivery.groupGiftContribution ? (
        <p className="mt-2">{t("giftLists.group.orderNote")}</p>
      ) : delivery.method === "collection" ? (
        <div className="mt-2">
          <p className="text-sm text-muted">{t("order.delivery.collectAt")}</p>
          <address className="not-italic">{postalAddress(shop)}</address>
          <OpeningHoursList hours={shop.openingHours} className="mt-2 text-sm" />
        </div>
      ) : delivery.toGiftList ? (
        <p className="mt-2">{t("order.delivery.giftListAddress")}</p>
      ) : (
        delivery.address && (
          <div className="mt-2">
            <p className="text-sm text-muted">{t("order.delivery.shipTo")}</p>
            <address className="not-italic">
              <span className="block">
                {order.firstName} {order.lastName}
              </span>
              <span className="block">
                {delivery.address.street} {delivery.address.houseNumber}
              </span>
              <span className="block">
                {delivery.address.postcode} {delivery.address.city} ({delivery.address.province})
              </span>
            </address>
          </div>
        )
      )}
      {delivery.carrier && delivery.trackingNumber && (
        <p className="mt-3 rounded-lg bg-brand-50 px-3 py-2 text-sm">
          {t("order.delivery.tracking", { carrier: delivery.carrier, tracking: delivery.trackingNumber })}
          {delivery.trackingUrl && (
            <>
              {" "}
              <a href={delivery.trackingUrl} className="font-semibold underline">
                {t("order.delivery.follow", { carrier: delivery.carrier })}
              </a>
            </>
          )}
        </p>
      )}
    </Panel>
  );
}

/** An IBAN as banks' forms take it: no spaces, capitals. */
const compactIban = (iban: string) => iban.replace(/\s+/g, "").toUpperCase();
/** An IBAN in groups of four, as it is printed for reading. */
const ibanGroups = (iban: string) => compactIban(iban).match(/.{1,4}/g) ?? [];

/**
 * A value to copy into a bank's form. `groups` shows it in pieces for reading (an IBAN by four) with a gap
 * that is not a character, so the button and a selection both copy it as one piece, without spaces.
 */
function CopyableValue({ label, value, groups, note }: { label: string; value: string; groups?: readonly string[]; note?: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2">
      <dt className="w-full text-sm text-muted sm:w-28">{label}</dt>
      <dd className="min-w-0 flex-1 font-mono font-semibold break-all">
        {groups
          ? groups.map((group, index) => (
              <span key={index} className="mr-[0.6ch] inline-block last:mr-0">
                {group}
              </span>
            ))
          : value}
        {note && <span className="mt-1 block font-sans text-sm font-normal text-muted">{note}</span>}
      </dd>
      {hydrated && (
        <dd>
          <button
            type="button"
            className="btn-secondary px-3 py-1"
            aria-label={t("order.payment.copyLabel", { what: label })}
            onClick={() => {
              // Without clipboard access the button only does not confirm: the value stays on the page to copy by hand.
              void navigator.clipboard?.writeText(value).then(
                () => setCopied(true),
                () => setCopied(false),
              );
            }}
          >
            {t("order.payment.copy")}
          </button>
          <span role="status" className="ml-2 text-sm text-brand-800">
            {copied ? t("order.payment.copied") : ""}
          </span>
        </dd>
      )}
    </div>
  );
}

/**
 * How the order is paid: bank-transfer details with copy buttons, what to pay on delivery or in the
 * shop, or, for a card payment not yet confirmed, a note and "Paga ora".
 */
export function OrderPayment({ order, locale, payProblem }: { order: OrderView; locale: Locale; payProblem: boolean }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const { payment } = order;
  // What is left to pay once a gift card paid its share (common/order-summary.ts).
  const total = formatMoney(order.summary.payments?.stillToPayCents ?? order.totals.totalCents, locale, "EUR");
  const awaiting = order.status === "awaiting_payment";
  return (
    <Panel id="order-payment-title" title={t("order.payment.title")}>
      <p className="flex flex-wrap items-center gap-2 font-semibold">
        {payment.onlineMethod ? t(`onlinePayments.methods.${payment.onlineMethod}`) : t(`order.payment.${payment.method}`)}
        <span className="rounded-full bg-brand-50 px-2 py-0.5 text-sm text-brand-900">{t(`order.payment.status.${payment.status}`)}</span>
      </p>
      {payment.paidAt && <p className="mt-2">{t("order.payment.paidOn", { date: formatDate(payment.paidAt, locale) })}</p>}
      {awaiting && payment.method === "bank_transfer" && payment.bankTransfer && (
        <div className="mt-3" data-testid="bank-transfer">
          <p>{t("order.payment.bankIntro")}</p>
          <dl className="mt-2 divide-y divide-brand-100">
            <CopyableValue
              label={t("order.payment.iban")}
              value={compactIban(payment.bankTransfer.iban)}
              groups={ibanGroups(payment.bankTransfer.iban)}
            />
            <CopyableValue label={t("order.payment.holder")} value={payment.bankTransfer.beneficiary} />
            <div className="flex flex-wrap gap-x-3 py-2">
              <dt className="w-full text-sm text-muted sm:w-28">{t("order.payment.bank")}</dt>
              <dd className="font-semibold">{payment.bankTransfer.bankName}</dd>
            </div>
            <CopyableValue label={t("order.payment.reason")} value={payment.bankTransfer.reason} note={t("order.payment.reasonNote")} />
            <CopyableValue label={t("order.payment.amount")} value={formatMoney(payment.bankTransfer.amountCents, locale, "EUR")} />
            {payment.bankTransfer.dueAt && (
              <div className="flex flex-wrap gap-x-3 py-2">
                <dt className="w-full text-sm text-muted sm:w-28">{t("order.payment.dueBy")}</dt>
                <dd className="font-semibold">{formatDate(payment.bankTransfer.dueAt, locale)}</dd>
              </div>
            )}
          </dl>
          <p className="mt-2 text-sm text-muted">{t("order.payment.bankNote")}</p>
        </div>
      )}
      {awaiting && payment.method === "cash_on_delivery" && <p className="mt-2">{t("order.payment.cashOnDelivery", { total })}</p>}
      {awaiting && payment.method === "in_shop" && <p className="mt-2">{t("order.payment.inShop", { total })}</p>}
      {awaiting && payment.status === "processing" && (
        <p role="status" className="mt-2" data-testid="payment-processing">
          {t("order.payment.processing", { method: t(`onlinePayments.methods.${payment.onlineMethod ?? "card"}`) })}
        </p>
      )}
      {order.status === "expired" && payment.status === "failed" && payment.onlineMethod && (
        <p role="alert" className="mt-2 rounded-lg bg-coral-50 px-3 py-2 text-coral-700" data-testid="payment-failed">
          {t("order.payment.failed", { method: t(`onlinePayments.methods.${payment.onlineMethod}`) })}
        </p>
      )}
      {awaiting && payment.method === "card" && payment.status !== "processing" && (
        <div className="mt-2" data-testid="card-pending">
          <p role="status">{t("order.payment.cardPending")}</p>
          {payProblem && (
            <p role="alert" className="mt-2 rounded-lg bg-coral-50 px-3 py-2 font-semibold text-coral-700">
              {t("order.payment.paymentProblem")}
            </p>
          )}
          <Form method="post" action={`${pathname}${search}`} className="mt-3">
            <input type="hidden" name="intent" value="pay" />
            <button type="submit" className="btn-coral">
              {t("order.payment.payNow")}
            </button>
          </Form>
        </div>
      )}
    </Panel>
  );
}

/** Every status the order went through, oldest first, with the shop's notes. */
export function OrderHistory({ order, locale }: { order: OrderView; locale: Locale }) {
  const { t } = useTranslation();
  // The shop's own codes become sentences; other codes stay for the back office; staff's words are shown.
  const noteText = (note: string | null) => customerHistoryNoteText(t, note, locale);
  return (
    <Panel id="order-history-title" title={t("order.history.title")}>
      <ol className="relative space-y-4 border-l-2 border-brand-100 pl-5">
        {order.history
          .filter((entry) => !isStaffOnlyHistoryNote(entry.note))
          .map((entry, index) => (
            <li key={`${entry.status}-${index}`} className="relative">
              <span aria-hidden="true" className="absolute top-1.5 -left-[1.72rem] size-3 rounded-full border-2 border-white bg-brand-700" />
              <p className="font-semibold">{t(`purchases.status.${entry.status}`)}</p>
              <p className="text-sm text-muted">
                <time dateTime={new Date(entry.at).toISOString()}>{formatDateTime(entry.at, locale)}</time>
              </p>
              {noteText(entry.note) && <p className="text-sm">{noteText(entry.note)}</p>}
            </li>
          ))}
      </ol>
    </Panel>
  );
}
