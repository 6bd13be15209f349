import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { isOnlinePaymentMethod, onlinePaymentMethods, type OnlineMethodOffer } from "#common/online-payment-methods.ts";
import type { PaymentChoice } from "#server/orders/order-methods.ts";
import type { CheckoutSummary } from "#server/checkout/checkout.service.ts";
import { postalAddress } from "#common/shop-contacts.ts";
import { ChoiceCard, CheckoutSection } from "./checkout-fields";
import { DeliveryEstimateText } from "./delivery-promise";
import { OpeningHoursList } from "./opening-hours-list";
import { useFormatPrice } from "./price";
import type { ShopIdentity } from "#app/lib/root-data.ts";

export type DeliveryChoice = CheckoutSummary["deliveries"][number]["method"];
export type { PaymentChoice };

export const deliveryChoices: readonly DeliveryChoice[] = ["local_delivery", "collection", "standard"];
/** The ways to pay online first (each one its own choice), then the ones the shop takes itself. */
export const paymentChoices: readonly PaymentChoice[] = [...onlinePaymentMethods, "cash_on_delivery", "bank_transfer", "in_shop"];

/** Whether the latest summary offers this choice: its method allowed with the delivery, an online one also for the total. */
export function isPaymentChoiceOffered(summary: CheckoutSummary, choice: PaymentChoice): boolean {
  if (!isOnlinePaymentMethod(choice)) return summary.allowedPayments.includes(choice);
  return summary.allowedPayments.includes("card") && summary.onlineMethods.some((offer) => offer.method === choice && offer.available);
}

/**
 * Delivery as radio cards, with the fee the server quoted for the postcode given. An option the
 * postcode rules out is disabled and says why.
 */
export function DeliveryChoices({
  summary,
  value,
  onChange,
  shop,
  error,
}: {
  summary: CheckoutSummary;
  value: DeliveryChoice | null;
  onChange: (value: DeliveryChoice) => void;
  shop: ShopIdentity;
  error?: string;
}) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  return (
    <CheckoutSection title={t("checkout.delivery.title")}>
      <div id="checkout-deliveryMethod" tabIndex={-1} className="space-y-3">
        {deliveryChoices.map((method) => {
          const quote = summary.deliveries.find((candidate) => candidate.method === method);
          if (!quote) return null;
          return (
            <ChoiceCard
              key={method}
              name="deliveryMethod"
              value={method}
              checked={value === method}
              disabled={!quote.available}
              onChange={(chosen) => onChange(chosen as DeliveryChoice)}
              title={t(`checkout.delivery.${method}.name`)}
              price={quote.feeCents === 0 ? t("checkout.delivery.free") : format(quote.feeCents)}
              reason={quote.reason ? t(`checkout.delivery.reason.${quote.reason}`, { city: shop.city }) : null}
            >
              {t(`checkout.delivery.${method}.text`, { city: shop.city, address: postalAddress(shop) })}
              {quote.available && quote.estimate && (
                <span className="mt-1 block font-semibold text-brand-800" data-testid="delivery-estimate">
                  <DeliveryEstimateText estimate={quote.estimate} today={summary.deliveryToday} />
                </span>
              )}
              {method === "collection" && (
                <details className="mt-1">
                  <summary className="link inline">{t("checkout.delivery.openingHours")}</summary>
                  <OpeningHoursList hours={shop.openingHours} className="mt-1 text-ink" />
                </details>
              )}
            </ChoiceCard>
          );
        })}
      </div>
      {error && (
        <p id="checkout-deliveryMethod-error" className="field-error">
          {error}
        </p>
      )}
    </CheckoutSection>
  );
}

/**
 * Payment as radio cards. The ones the chosen delivery does not allow are disabled with the reason
 * (the server refuses them anyway).
 */
export function PaymentChoices({
  summary,
  value,
  onChange,
  error,
}: {
  summary: CheckoutSummary;
  value: PaymentChoice | null;
  onChange: (value: PaymentChoice) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  return (
    <CheckoutSection title={t("checkout.payment.title")}>
      <div id="checkout-paymentMethod" tabIndex={-1} className="space-y-3">
        {summary.onlineMethods.map((offer) => (
          <OnlineMethodChoice key={offer.method} offer={offer} checked={value === offer.method} onChange={onChange} />
        ))}
        {/* No online method to offer: the card is shown unavailable, as the shop's other refusals are. */}
        {(summary.onlineMethods.length > 0 ? offlinePaymentMethods : paymentMethodsShown).map((method) => {
          const allowed = summary.allowedPayments.includes(method);
          return (
            <ChoiceCard
              key={method}
              name="paymentMethod"
              value={method}
              checked={value === method}
              disabled={!allowed}
              onChange={(chosen) => onChange(chosen as PaymentChoice)}
              title={t(`checkout.payment.${method}.name`)}
              reason={
                allowed
                  ? null
                  : t(
                      summary.giftList && method === "cash_on_delivery"
                        ? "checkout.giftList.noCashOnDelivery"
                        : `checkout.payment.disabled.${method}`,
                    )
              }
            >
              {t(`checkout.payment.${method}.text`, { fee: format(summary.codFeeCents), days: summary.daysToPay })}
            </ChoiceCard>
          );
        })}
      </div>
      {error && (
        <p id="checkout-paymentMethod-error" className="field-error">
          {error}
        </p>
      )}
    </CheckoutSection>
  );
}

const offlinePaymentMethods = ["cash_on_delivery", "bank_transfer", "in_shop"] as const;
const paymentMethodsShown = ["card", ...offlinePaymentMethods] as const;

/** One way to pay online, logo-free; unavailable (with the limit it misses) when the total does not fit it. */
function OnlineMethodChoice({ offer, checked, onChange }: { offer: OnlineMethodOffer; checked: boolean; onChange: (value: PaymentChoice) => void }) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  const limit = offer.reason === "below-minimum" ? offer.minCents : offer.maxCents;
  return (
    <ChoiceCard
      name="paymentMethod"
      value={offer.method}
      checked={checked}
      disabled={!offer.available}
      onChange={(chosen) => onChange(chosen as PaymentChoice)}
      title={t(`onlinePayments.methods.${offer.method}`)}
      reason={offer.reason && limit !== null ? t(`onlinePayments.reasons.${offer.reason}`, { amount: format(limit) }) : null}
    >
      {t(`onlinePayments.texts.${offer.method}`)}
    </ChoiceCard>
  );
}

/**
 * A gift-list cart's delivery: fixed by the list, shown as text without the family's address (the
 * server copies it into the order). The giver's name and message come from the list's page.
 */
export function GiftListDelivery({
  giftList,
  summary,
  shop,
  locale,
}: {
  giftList: NonNullable<CheckoutSummary["giftList"]>;
  summary: CheckoutSummary;
  shop: ShopIdentity;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  const collection = giftList.delivery === "collection";
  return (
    <CheckoutSection title={t("checkout.giftList.title", { title: giftList.title })}>
      <div
        id="checkout-deliveryMethod"
        tabIndex={-1}
        className="rounded-xl border-2 border-brand-200 bg-brand-50 p-4"
        data-testid="gift-list-delivery"
      >
        <input type="hidden" name="deliveryMethod" value={giftList.delivery} />
        <p className="flex justify-between gap-4 font-semibold">
          <span>{collection ? t("checkout.delivery.collection.name") : t("checkout.giftList.shippedToList")}</span>
          <span>{summary.shippingCents === 0 ? t("checkout.delivery.free") : format(summary.shippingCents)}</span>
        </p>
        <p className="mt-1 text-sm text-muted">
          {collection ? t("checkout.giftList.collectionText", { address: postalAddress(shop) }) : t("checkout.giftList.shippedToListText")}
        </p>
        {summary.deliveries[0]?.estimate && (
          <p className="mt-1 text-sm font-semibold text-brand-800" data-testid="delivery-estimate">
            <DeliveryEstimateText estimate={summary.deliveries[0].estimate} today={summary.deliveryToday} />
          </p>
        )}
      </div>
      <h3 className="mt-5 font-bold">{t("checkout.giftList.noteTitle")}</h3>
      {giftList.giverName || giftList.giftMessage ? (
        <dl className="mt-2 space-y-1" data-testid="gift-list-note">
          {giftList.giverName && (
            <div>
              <dt className="text-sm text-muted">{t("checkout.giftList.giverName")}</dt>
              <dd className="font-semibold">{giftList.giverName}</dd>
            </div>
          )}
          {giftList.giftMessage && (
            <div>
              <dt className="text-sm text-muted">{t("checkout.giftList.giftMessage")}</dt>
              <dd className="whitespace-pre-line">{giftList.giftMessage}</dd>
            </div>
          )}
        </dl>
      ) : (
        <p className="mt-2 text-sm text-muted">{t("checkout.giftList.noNote")}</p>
      )}
      <Link to={localizedHref(`/lista-nascita/${giftList.code}`, locale)} className="link mt-2 inline-block">
        {t("checkout.giftList.editNote")}
      </Link>
    </CheckoutSection>
  );
}
