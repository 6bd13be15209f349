import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { createI18n } from "#app/lib/i18n.ts";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";

/**
 * Server-renders `page` as it would be at `url`: a router at that address and one i18next instance with every
 * message of the URL's language (`/en...` English, otherwise Italian), as one page's rendering has.
 */
export function renderPageAt(url: string, page: ReactNode): string {
  const locale = url.startsWith("/en") ? "en" : "it";
  const router = createMemoryRouter([{ path: "*", element: page }], { initialEntries: [url] });
  return renderToString(
    <I18nextProvider i18n={createI18n(locale, locale === "en" ? messagesEn : messagesIt)}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}
