import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { useAnsweredPersonalPart, usePersonalAnswer, useRootData } from "#app/lib/root-data.ts";
import { usePersonalSync } from "#app/lib/personal-store.ts";
import type { Locale } from "#common/locale.ts";
import type { PersonalPart } from "#app/lib/personal-part.tsx";
import { GiftListFillingBar } from "./gift-list-filling";
import { NavigationProgress } from "./navigation-progress";
import { ScrollToTopButton } from "./scroll-to-top-button";
import { BackOfficeFooter, SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";
import { Toaster, ToastProvider, useToast } from "./toaster";
import { TopBar } from "./top-bar";
import { WhatsAppChatLink } from "./whatsapp-chat-link";

/**
 * Every page's frame: skip link, top bar, header, `<main id="main">`, footer, the floating chat
 * link. Pages render only their content. Without the root loader's data (e.g. the database is
 * down) the content is shown bare.
 */
export function SiteShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const root = useRootData();
  // The toasts of a post made without JavaScript; the header's regions read the user and the cart themselves.
  const flash = usePersonalAnswer("flash toasts", (part) => part.cart.flash);
  const answered = useAnsweredPersonalPart();
  // The storefront's footer (newsletter sign-up, help links) and its chat bubble are for customers: the back office has its own plain one.
  const isBackOffice = /^(\/en)?\/admin(\/|$)/.test(useLocation().pathname);
  if (!root) {
    return (
      <ToastProvider>
        <main id="main" className="mx-auto max-w-3xl px-4 py-16">
          {children}
        </main>
        <Toaster />
      </ToastProvider>
    );
  }
  const { locale, shop, categories, newsletterUrl } = root;
  return (
    <ToastProvider initial={flash}>
      <PersonalSync locale={locale} answered={answered.part} shared={answered.shared} />
      <a
        href="#main"
        className="sr-only z-[80] rounded-full bg-white px-4 py-2 font-semibold text-brand-800 shadow-card focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        {t("skipLink")}
      </a>
      <NavigationProgress />
      <header id="top" tabIndex={-1} className="outline-none">
        <TopBar locale={locale} phone={shop.phone} city={shop.city} />
        <SiteHeader locale={locale} shopName={shop.name} categories={categories} />
      </header>
      <GiftListFillingBar />
      <main id="main" tabIndex={-1} className="outline-none">
        {children}
      </main>
      {isBackOffice ? (
        <BackOfficeFooter shop={shop}>
          <ScrollToTopButton />
        </BackOfficeFooter>
      ) : (
        <SiteFooter locale={locale} shop={shop} newsletterUrl={newsletterUrl}>
          <WhatsAppChatLink whatsapp={shop.whatsapp} />
          <ScrollToTopButton />
        </SiteFooter>
      )}
      <Toaster />
    </ToastProvider>
  );
}

/** Keeps the browser's copy of her personal part current (app/lib/personal-store.ts); its toasts go to the page's. */
function PersonalSync({ locale, answered, shared }: { locale: Locale; answered: PersonalPart | undefined; shared: boolean }) {
  const { showToast } = useToast();
  usePersonalSync(locale, answered, shared, showToast);
  return null;
}
