import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { expect, test } from "vitest";
import { createI18n } from "#app/lib/i18n.ts";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";
import { LoginRequiredPage } from "./login-required-page";
import { NotFoundPage } from "./not-found-page";

function render(page: React.ReactNode, url: string) {
  const locale = url.startsWith("/en") ? "en" : "it";
  const router = createMemoryRouter([{ path: "*", element: page }], { initialEntries: [url] });
  return renderToString(
    <I18nextProvider i18n={createI18n(locale, locale === "en" ? messagesEn : messagesIt)}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

test("the 401 page asks to log in and links to the login page with the way back", () => {
  const html = render(<LoginRequiredPage />, "/crea-lista-nascita?tab=2");
  expect(html).toContain("Accedi per continuare");
  expect(html).toContain('href="/login-register?redirectTo=%2Fcrea-lista-nascita%3Ftab%3D2"');

  const english = render(<LoginRequiredPage />, "/en/my-account");
  expect(english).toContain("Please log in to continue");
  expect(english).toContain('href="/en/login-register?redirectTo=%2Fen%2Fmy-account"');
});

test("the 404 page says so in the shop's words, with a search box and a link home", () => {
  const html = render(<NotFoundPage />, "/prodotto-sparito");
  expect(html).toContain("404");
  expect(html).toContain("OPPS! Pagina o Prodotto non trovato");
  expect(html).toMatch(/<form[^>]*action="\/shop"/);
  expect(html).toContain('name="fromsearch" value="true"');
  expect(html).toContain('name="search"');
  expect(html).toContain('href="/"');

  expect(render(<NotFoundPage />, "/en/nothing")).toMatch(/<form[^>]*action="\/en\/shop"/);
});
