import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { localeOfPath } from "#common/locale.ts";
import { createI18n } from "./lib/i18n";
import { DocumentPersonalPart, readDocumentPersonalPart } from "./lib/personal-part";

// The page's messages arrive in its loader data, in its own language (app/lib/route-messages.ts); switching
// language is a full page load.
const i18n = createI18n(localeOfPath(window.location.pathname), {});
// The page's own personal part (header, mini cart): read once; client navigations bring theirs in loader data.
const personalPart = readDocumentPersonalPart();

startTransition(() => {
  hydrateRoot(
    document,
    <I18nextProvider i18n={i18n}>
      <DocumentPersonalPart value={personalPart}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </DocumentPersonalPart>
    </I18nextProvider>,
  );
});
