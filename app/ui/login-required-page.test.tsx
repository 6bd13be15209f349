import { expect, test } from "vitest";
import { renderPageAt } from "#tests/render-page.tsx";
import { LoginRequiredPage } from "./login-required-page";
import { NotFoundPage } from "./not-found-page";

const render = (page: React.ReactNode, url: string) => renderPageAt(url, page);

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
