import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { htmlLang, localizedHref, locales, pathInLocale, type Locale } from "#common/locale.ts";
import { telHref } from "#common/shop-contacts.ts";
import { CurrencySwitch } from "./currency-switch";
import { PhoneIcon, TruckIcon } from "./icons";

const languageNames: Record<Locale, string> = { it: "Italiano", en: "English" };

/**
 * The same page in each language. Plain links: switching language is a full page load, which
 * downloads that language's messages (app/entry.client.tsx).
 */
export function LanguageSwitch({ locale, className = "" }: { locale: Locale; className?: string }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  return (
    <nav aria-label={t("language.label")} className={className}>
      <ul className="flex items-center gap-1">
        {locales.map((option) => (
          <li key={option}>
            <a
              href={`${pathInLocale(pathname, option)}${search}`}
              hrefLang={option}
              lang={htmlLang[option]}
              aria-current={option === locale ? "true" : undefined}
              className="rounded px-1.5 py-0.5 underline-offset-2 hover:underline aria-[current=true]:font-bold aria-[current=true]:underline"
            >
              {languageNames[option]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function TopBar({ locale, phone, city }: { locale: Locale; phone: string; city: string }) {
  const { t } = useTranslation();
  return (
    <div className="bg-brand-800 text-sm text-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-6 gap-y-1 px-4 py-1.5 sm:px-6 lg:px-8">
        <p className="flex items-center gap-2">
          <TruckIcon size={18} />
          {t("topBar.freeDelivery", { city })}
        </p>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
          <a href={telHref(phone)} className="flex items-center gap-1.5 hover:underline">
            <PhoneIcon size={16} />
            <span className="sr-only">{t("topBar.phone")}</span>
            {phone}
          </a>
          <Link
            to={localizedHref("/lista-nascita", locale)}
            className="rounded-full bg-coral-100 px-3 py-0.5 text-xs font-bold tracking-wide text-coral-700 hover:bg-white"
          >
            {t("topBar.giftList")}
          </Link>
          <LanguageSwitch locale={locale} />
          <CurrencySwitch />
        </div>
      </div>
    </div>
  );
}
