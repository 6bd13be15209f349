import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatMoney } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { orderLookupPath } from "#app/lib/order-lookup.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { OpeningHoursList } from "#app/ui/opening-hours-list.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { TranslatedList } from "#app/ui/prose.tsx";
import { helpCentreSections } from "#app/ui/site-footer.tsx";
import { postalAddress } from "#common/shop-contacts.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/help-centre";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["helpCentre"] } satisfies MessagesHandle;

export async function loader({ url, context }: Route.LoaderArgs) {
  const { db } = context.get(shopContext);
  const { delivery, bankTransfer, deliveryTimes } = await getSettings(db, ["delivery", "bankTransfer", "deliveryTimes"]);
  const { preparationDays, localDeliveryDays, standardDays, cutoff } = deliveryTimes;
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "helpCentre"),
    delivery,
    bankTransfer,
    // The same days the delivery promise counts (server/checkout/delivery-estimate.ts), so the two agree.
    deliveryDays: {
      local: { min: preparationDays + localDeliveryDays.min, max: preparationDays + localDeliveryDays.max },
      standard: standardDays,
      cutoff,
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

function HelpSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-4 border-t border-brand-100 pt-2 first:border-t-0">
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

export default function HelpCentrePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  if (!root) return null;
  const { shop, locale } = root;
  const { delivery, bankTransfer, deliveryDays } = loaderData;
  /** "1-2" or "2", and the count its words agree with. */
  const days = ({ min, max }: { min: number; max: number }) => ({ days: min === max ? `${max}` : `${min}-${max}`, count: max });
  const money = (cents: number) => formatMoney(cents, locale);
  const address = postalAddress(shop);
  return (
    <>
      <PageHeader title={t("helpCentre.title")}>
        <p>{t("helpCentre.lead")}</p>
      </PageHeader>
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-10 lg:grid-cols-[14rem_1fr]">
        <nav aria-label={t("helpCentre.tocLabel")} className="lg:sticky lg:top-4 lg:self-start">
          <ul className="space-y-1 rounded-2xl bg-white p-3 shadow-card">
            {helpCentreSections.map((section) => (
              <li key={section.anchor}>
                <a href={`#${section.anchor}`} className="block rounded-lg px-3 py-2 font-semibold text-brand-800 hover:bg-brand-50">
                  {t(section.labelKey)}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="prose-page min-w-0">
          <HelpSection id="condizionespedizione" title={t("helpCentre.shipping.title")}>
            <p>{t("helpCentre.shipping.intro")}</p>
            <h3>{t("helpCentre.shipping.localTitle", { city: shop.city })}</h3>
            <p>{t("helpCentre.shipping.local", { city: shop.city, postcodes: delivery.localPostcodes.join(", "), ...days(deliveryDays.local) })}</p>
            <h3>{t("helpCentre.shipping.collectionTitle")}</h3>
            <p>{t("helpCentre.shipping.collection", { address })}</p>
            <OpeningHoursList hours={shop.openingHours} className="mb-4 rounded-xl bg-white p-4 shadow-card" />
            <h3>{t("helpCentre.shipping.standardTitle")}</h3>
            <p>{t("helpCentre.shipping.standard", { fee: money(delivery.standardFeeCents), ...days(deliveryDays.standard) })}</p>
            <p>{t("helpCentre.shipping.cutoff", { cutoff: deliveryDays.cutoff })}</p>
            <p>{t("helpCentre.shipping.freeShipping")}</p>
            <h3>{t("helpCentre.shipping.preorderTitle")}</h3>
            <p>{t("helpCentre.shipping.preorder")}</p>
            <h3>{t("helpCentre.shipping.receivingTitle")}</h3>
            <p>{t("helpCentre.shipping.receiving")}</p>
          </HelpSection>

          <HelpSection id="terminidipagamento" title={t("helpCentre.payment.title")}>
            <p>{t("helpCentre.payment.intro")}</p>
            <h3>{t("helpCentre.payment.cardTitle")}</h3>
            <p>{t("helpCentre.payment.card")}</p>
            <h3>{t("helpCentre.payment.codTitle")}</h3>
            <p>
              {delivery.cashOnDeliveryFeeCents > 0
                ? t("helpCentre.payment.codWithFee", { fee: money(delivery.cashOnDeliveryFeeCents) })
                : t("helpCentre.payment.cod")}
            </p>
            <h3>{t("helpCentre.payment.transferTitle")}</h3>
            <p>{t("helpCentre.payment.transfer", { days: bankTransfer.daysToPay })}</p>
            <dl className="mb-4 grid gap-x-4 gap-y-1 rounded-xl bg-white p-4 shadow-card sm:grid-cols-[auto_1fr]">
              <dt className="font-semibold">{t("helpCentre.payment.iban")}</dt>
              <dd className="font-mono break-all">{bankTransfer.iban}</dd>
              <dt className="font-semibold">{t("helpCentre.payment.beneficiary")}</dt>
              <dd>{bankTransfer.beneficiary}</dd>
              <dt className="font-semibold">{t("helpCentre.payment.bank")}</dt>
              <dd>{bankTransfer.bankName}</dd>
              <dt className="font-semibold">{t("helpCentre.payment.reason")}</dt>
              <dd>{t("helpCentre.payment.reasonValue")}</dd>
            </dl>
            <h3>{t("helpCentre.payment.inShopTitle")}</h3>
            <p>{t("helpCentre.payment.inShop")}</p>
          </HelpSection>

          <HelpSection id="politicacancellazione" title={t("helpCentre.withdrawal.title")}>
            <p>{t("helpCentre.withdrawal.intro")}</p>
            <h3>{t("helpCentre.withdrawal.howTitle")}</h3>
            <p>{t("helpCentre.withdrawal.how", { email: shop.email, address: `${shop.legalName}, ${address}` })}</p>
            <p>
              <Link to={localizedHref(orderLookupPath, locale)} className="btn-primary">
                {t("orderLookup.footerLink")}
              </Link>
            </p>
            <h3>{t("helpCentre.withdrawal.returnTitle")}</h3>
            <p>{t("helpCentre.withdrawal.return", { address })}</p>
            <h3>{t("helpCentre.withdrawal.refundTitle")}</h3>
            <p>{t("helpCentre.withdrawal.refund")}</p>
            <h3>{t("helpCentre.withdrawal.exceptionsTitle")}</h3>
            <p>{t("helpCentre.withdrawal.exceptionsIntro")}</p>
            <TranslatedList messageKey="helpCentre.withdrawal.exceptions" />
            <h3>{t("helpCentre.withdrawal.cancelTitle")}</h3>
            <p>{t("helpCentre.withdrawal.cancel")}</p>
          </HelpSection>

          <HelpSection id="condizionidivedita" title={t("helpCentre.conditions.title")}>
            <h3>{t("helpCentre.conditions.sellerTitle")}</h3>
            <p>
              {t("helpCentre.conditions.seller", {
                legalName: shop.legalName,
                address,
                vatNumber: shop.vatNumber,
                email: shop.email,
                phone: shop.phone,
              })}
            </p>
            <h3>{t("helpCentre.conditions.pricesTitle")}</h3>
            <p>{t("helpCentre.conditions.prices")}</p>
            <h3>{t("helpCentre.conditions.orderTitle")}</h3>
            <p>{t("helpCentre.conditions.order")}</p>
            <h3>{t("helpCentre.conditions.guaranteeTitle")}</h3>
            <p>{t("helpCentre.conditions.guarantee")}</p>
            <p>{t("helpCentre.conditions.guaranteeRemedies")}</p>
            <h3>{t("helpCentre.conditions.complaintsTitle")}</h3>
            <p>{t("helpCentre.conditions.complaints", { email: shop.email, phone: shop.phone })}</p>
            <h3>{t("helpCentre.conditions.lawTitle")}</h3>
            <p>{t("helpCentre.conditions.law")}</p>
            <p>
              {t("helpCentre.conditions.privacyNote")} <Link to={localizedHref("/privacy", locale)}>{t("privacy.title")}</Link>
            </p>
          </HelpSection>
        </div>
      </div>
    </>
  );
}
