import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { createI18n } from "./lib/i18n";
import { localeOfPath } from "./lib/locale";

// Only the page's own language is downloaded; switching language is a full page load.
const locale = localeOfPath(window.location.pathname);
const messages = locale === "en" ? await import("#messages/en.json") : await import("#messages/it.json");
const i18n = createI18n(locale, messages.default);

startTransition(() => {
  hydrateRoot(
    document,
    <I18nextProvider i18n={i18n}>
      <StrictMode>
        <HydratedRouter />
      </StrictMode>
    </I18nextProvider>,
  );
});
