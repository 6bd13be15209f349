import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { formatWhatsappNumber, mapsHref, postalAddress, telHref, whatsappHref } from "#common/shop-contacts.ts";
import { PaymentCurrencyNote } from "./currency-switch";
import { FacebookIcon, InstagramIcon, MailIcon, MapPinIcon, PhoneIcon, WhatsAppIcon } from "./icons";
import { NewsletterSignUp } from "./newsletter-sign-up";
import { OpeningHoursList } from "./opening-hours-list";
import { orderLookupPath } from "#app/lib/order-lookup.ts";
import type { ShopIdentity } from "#app/lib/root-data.ts";

/** The four sections of the help centre, by their historic anchors (docs/rules.md#storefront). */
export const helpCentreSections = [
  { anchor: "condizionespedizione", labelKey: "helpCentre.shipping.title" },
  { anchor: "terminidipagamento", labelKey: "helpCentre.payment.title" },
  { anchor: "politicacancellazione", labelKey: "helpCentre.withdrawal.title" },
  { anchor: "condizionidivedita", labelKey: "helpCentre.conditions.title" },
] as const;

export const helpCentreHref = (locale: Locale, anchor?: string) => `${localizedHref("/centroassistenza/", locale)}${anchor ? `#${anchor}` : ""}`;

function FooterColumn({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="mb-3 text-base font-bold text-white">{title}</h2>
      {children}
    </div>
  );
}

const footerLink = "hover:text-white hover:underline";

type FooterLink = { path: string; labelKey: string };

const legalLinks: FooterLink[] = [
  { path: "/privacy", labelKey: "privacy.title" },
  { path: "/cookie-policy", labelKey: "cookiePolicy.title" },
];

const informationLinks: FooterLink[] = [
  { path: "/about", labelKey: "nav.about" },
  { path: "/contact", labelKey: "nav.contact" },
  { path: "/lista-nascita", labelKey: "nav.giftList" },
  { path: "/carta-regalo/acquista", labelKey: "vouchers.purchase.link" },
  { path: "/centroassistenza/", labelKey: "helpCentre.title" },
  ...legalLinks,
];

function FooterLinks({ links, locale, className }: { links: FooterLink[]; locale: Locale; className: string }) {
  const { t } = useTranslation();
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.path}>
          <Link to={localizedHref(link.path, locale)} className={footerLink}>
            {t(link.labelKey)}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The sign-up when the settings name an external mailing-list form: it posts straight there (its origin is allowed in the CSP). */
function ExternalNewsletterForm({ url }: { url: string }) {
  const { t } = useTranslation();
  const inputId = useId();
  return (
    <form method="post" action={url} className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <div className="flex-1">
        <label htmlFor={inputId} className="mb-1 block text-sm font-semibold text-white">
          {t("footer.newsletterEmail")}
        </label>
        <input
          id={inputId}
          type="email"
          name="email"
          required
          autoComplete="email"
          className="block w-full rounded-full border border-brand-300 bg-white px-4 py-2 text-ink"
        />
      </div>
      <button type="submit" className="btn bg-coral-200 text-ink hover:bg-white">
        {t("footer.newsletterSubmit")}
      </button>
    </form>
  );
}

type SiteFooterProps = {
  locale: Locale;
  shop: ShopIdentity;
  /** An external mailing-list form from the settings; null: the shop's own list. */
  newsletterUrl: string | null;
  /** Floating controls (chat link, back to top): inside the footer landmark, fixed on screen. */
  children?: ReactNode;
};

export function SiteFooter({ locale, shop, newsletterUrl, children }: SiteFooterProps) {
  const { t } = useTranslation();
  return (
    <footer className="mt-16 bg-brand-900 text-sm text-brand-100">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
        <div className="grid gap-10 sm:grid-cols-2 lg:grid-cols-4">
          <FooterColumn title={t("footer.information")}>
            <FooterLinks links={informationLinks} locale={locale} className="space-y-2" />
          </FooterColumn>

          <FooterColumn title={t("footer.helpCentre")}>
            <ul className="space-y-2">
              {helpCentreSections.map((section) => (
                <li key={section.anchor}>
                  <Link to={helpCentreHref(locale, section.anchor)} className={footerLink}>
                    {t(section.labelKey)}
                  </Link>
                </li>
              ))}
              {/* The withdrawal function, easy to find during the whole period (docs/decisions/0090-withdrawal-function-for-guests.md). */}
              <li>
                <Link to={localizedHref(orderLookupPath, locale)} className={`font-semibold text-white ${footerLink}`}>
                  {t("orderLookup.footerLink")}
                </Link>
              </li>
            </ul>
          </FooterColumn>

          <FooterColumn title={t("footer.store")}>
            <address className="space-y-3 not-italic">
              <p className="flex gap-2">
                <MapPinIcon size={18} className="mt-0.5 shrink-0" />
                <a href={mapsHref(shop)} className={footerLink}>
                  {postalAddress(shop)}
                </a>
              </p>
              <div>
                <p className="mb-1 font-semibold text-white">{t("openingHours.title")}</p>
                <OpeningHoursList hours={shop.openingHours} />
              </div>
            </address>
          </FooterColumn>

          <FooterColumn title={t("footer.assistance")}>
            <ul className="space-y-2">
              <li>
                <a href={telHref(shop.phone)} className={`flex items-center gap-2 ${footerLink}`}>
                  <PhoneIcon size={18} />
                  <span className="sr-only">{t("contact.phoneLabel")}</span>
                  {shop.phone}
                </a>
              </li>
              <li>
                <a href={whatsappHref(shop.whatsapp)} className={`flex items-center gap-2 ${footerLink}`}>
                  <WhatsAppIcon size={18} />
                  <span className="sr-only">WhatsApp</span>
                  {formatWhatsappNumber(shop.whatsapp)}
                </a>
              </li>
              <li>
                <a href={`mailto:${shop.email}`} className={`flex items-center gap-2 break-all ${footerLink}`}>
                  <MailIcon size={18} className="shrink-0" />
                  <span className="sr-only">{t("contact.emailLabel")}</span>
                  {shop.email}
                </a>
              </li>
            </ul>
            {(shop.facebookUrl || shop.instagramUrl) && (
              <ul className="mt-5 flex gap-3" aria-label={t("footer.social")}>
                {shop.facebookUrl && (
                  <li>
                    <a href={shop.facebookUrl} className="grid size-10 place-items-center rounded-full bg-brand-800 text-white hover:bg-brand-700">
                      <FacebookIcon size={20} />
                      <span className="sr-only">Facebook</span>
                    </a>
                  </li>
                )}
                {shop.instagramUrl && (
                  <li>
                    <a href={shop.instagramUrl} className="grid size-10 place-items-center rounded-full bg-brand-800 text-white hover:bg-brand-700">
                      <InstagramIcon size={20} />
                      <span className="sr-only">Instagram</span>
                    </a>
                  </li>
                )}
              </ul>
            )}
          </FooterColumn>
        </div>

        <section aria-labelledby="newsletter-title" className="mt-12 grid gap-4 rounded-3xl bg-brand-800 p-6 lg:grid-cols-2 lg:items-start">
          <div>
            <h2 id="newsletter-title" className="text-lg font-bold text-white">
              {t("footer.newsletterTitle")}
            </h2>
            <p className="mt-1">{t("footer.newsletterText")}</p>
          </div>
          {newsletterUrl ? <ExternalNewsletterForm url={newsletterUrl} /> : <NewsletterSignUp locale={locale} shopName={shop.name} tone="dark" />}
        </section>
      </div>

      <div className="border-t border-brand-800">
        {/* Room on the right for the floating chat and back-to-top buttons: at the page's end they cover none of this line. */}
        <div className="mx-auto flex max-w-7xl flex-col gap-2 py-5 pr-24 pl-4 text-xs sm:flex-row sm:items-center sm:justify-between sm:pl-6 lg:pl-8">
          <div className="space-y-1">
            <CopyrightLine shop={shop} />
            <PaymentCurrencyNote />
          </div>
          <FooterLinks links={legalLinks} locale={locale} className="flex gap-4" />
        </div>
      </div>
      {children}
    </footer>
  );
}

function CopyrightLine({ shop }: { shop: ShopIdentity }) {
  const { t } = useTranslation();
  return (
    <p>
      © {new Date().getFullYear()} {shop.legalName} · {t("footer.vatNumber", { vatNumber: shop.vatNumber })}
    </p>
  );
}

/** The back office's own footer: the shop's legal line only, none of the storefront's links or its newsletter sign-up. */
export function BackOfficeFooter({ shop, children }: { shop: ShopIdentity; children?: ReactNode }) {
  return (
    <footer className="mt-16 border-t border-brand-100 bg-white text-xs text-muted" data-testid="back-office-footer">
      <div className="mx-auto max-w-7xl px-4 py-5 sm:px-6 lg:px-8">
        <CopyrightLine shop={shop} />
      </div>
      {children}
    </footer>
  );
}
