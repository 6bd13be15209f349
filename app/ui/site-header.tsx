import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { localizedHref, localeOfPath, type Locale } from "#common/locale.ts";
import { useSavedItems } from "#app/lib/browser-saved-items.ts";
import { PersonalRegion } from "#app/lib/root-data.ts";
import { AccountMenu } from "./account-menu";
import { CountBadge } from "./count-badge";
import { CompareIcon, HeartIcon, SearchIcon } from "./icons";
import type { NavCategory } from "./mega-menu";
import { MiniCart } from "./mini-cart";
import { MobileMenu, SiteMenu } from "./mobile-menu";
import { SearchBox } from "./search-box";
import { useDisclosure } from "./use-disclosure";
import { ShopLogo } from "./shop-logo";

/** Listing pages have their own search field, so the header's is hidden there (docs/rules.md#storefront). */
export function isShopListingPath(pathname: string): boolean {
  const bare = localeOfPath(pathname) === "en" ? pathname.slice(3) : pathname;
  return /^\/(shop|shop-grid-standard)\/?$/.test(bare) || /^\/(categoria|sottocategoria)\//.test(bare);
}

type SiteHeaderProps = {
  locale: Locale;
  shopName: string;
  categories: readonly NavCategory[];
};

function HeaderSearch({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const { detailsProps, summaryProps } = useDisclosure();
  return (
    <details
      {...detailsProps}
      onToggle={(event) => {
        detailsProps.onToggle(event);
        if (event.currentTarget.open) event.currentTarget.querySelector<HTMLInputElement>("input[type=search]")?.focus();
      }}
      className="relative"
    >
      <summary {...summaryProps} className="grid size-11 place-items-center rounded-full hover:bg-brand-50">
        <SearchIcon />
        <span className="sr-only">{t("search.open")}</span>
      </summary>
      <div className="absolute right-0 z-40 mt-2 w-[min(24rem,90vw)] rounded-2xl border border-brand-100 bg-white p-3 shadow-card">
        <SearchBox locale={locale} />
      </div>
    </details>
  );
}

const iconLinkClass = "relative grid size-11 place-items-center rounded-full hover:bg-brand-50";

export function SiteHeader({ locale, shopName, categories }: SiteHeaderProps) {
  const { t } = useTranslation();
  // The browser's lists (app/lib/browser-saved-items.ts).
  const saved = useSavedItems();
  const wishlistCount = saved.wishlist.length;
  const compareCount = saved.compare.length;
  const { pathname } = useLocation();
  return (
    <div className="relative border-b border-brand-100 bg-white">
      <div className="mx-auto flex max-w-7xl items-center gap-2 px-4 py-2 sm:px-6 lg:px-8 desktop:py-3">
        <MobileMenu />
        {/* Under the open phone menu's panel: out of the way of the keyboard, between the close button and the panel. */}
        <div className="shrink-0 mobile:peer-open/menu:invisible">
          <ShopLogo locale={locale} shopName={shopName} />
        </div>
        <SiteMenu categories={categories} locale={locale} />
        <div className="ml-auto flex items-center gap-0.5 desktop:ml-0">
          {!isShopListingPath(pathname) && (
            <div className="mobile:hidden">
              <HeaderSearch locale={locale} />
            </div>
          )}
          <PersonalRegion name="account-menu">
            <AccountMenu locale={locale} />
          </PersonalRegion>
          <Link to={localizedHref("/wishlist", locale)} className={`${iconLinkClass} max-sm:hidden`}>
            <HeartIcon />
            <CountBadge count={wishlistCount} />
            <span className="sr-only">{t("header.wishlistCount", { count: wishlistCount })}</span>
          </Link>
          <Link to={localizedHref("/compare", locale)} className={`${iconLinkClass} max-sm:hidden`}>
            <CompareIcon />
            <CountBadge count={compareCount} />
            <span className="sr-only">{t("header.compareCount", { count: compareCount })}</span>
          </Link>
          <PersonalRegion name="mini-cart">
            <MiniCart locale={locale} />
          </PersonalRegion>
        </div>
      </div>
    </div>
  );
}
