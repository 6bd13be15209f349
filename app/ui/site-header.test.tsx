import { expect, test } from "vitest";
import { renderPageAt } from "#tests/render-page.tsx";
import type { NavCategory } from "./mega-menu";
import { SiteHeader } from "./site-header";

const categories: NavCategory[] = [
  {
    slug: "A-spasso",
    name: "A spasso",
    subcategories: [
      { slug: "passeggini-leggeri", name: "Passeggini leggeri" },
      { slug: "marsupi-e-zaini", name: "Marsupi e zaini" },
    ],
  },
  { slug: "offerte", name: "Offerte", subcategories: [] },
];

function renderHeader(url: string) {
  const locale = url.startsWith("/en") ? "en" : "it";
  return renderPageAt(url, <SiteHeader locale={locale} shopName="Bimbi Felici" categories={categories} />);
}

const count = (html: string, text: string) => html.split(text).length - 1;

// The phone menu and the desktop panel are one list (decision 0030): each link is written once, which is
// what keeps the header light; two copies would be two links here.
test("the header links each category and subcategory once, in one navigation", () => {
  const html = renderHeader("/shop");
  expect(count(html, '<nav aria-label="Menu principale"')).toBe(1);
  for (const href of ["/categoria/A-spasso", "/sottocategoria/passeggini-leggeri", "/sottocategoria/marsupi-e-zaini", "/categoria/offerte"]) {
    expect(count(html, `href="${href}"`), href).toBe(1);
  }
  // The category's link says "A spasso" on a desktop, "Tutto in A spasso" under its accordion on a phone.
  expect(html).toContain("Tutto in A spasso");
  expect(html).not.toContain("Tutto in Offerte");
});

test("the current category is marked in the menu, in English too", () => {
  const html = renderHeader("/en/sottocategoria/marsupi-e-zaini");
  expect(html).toMatch(/<a aria-current="page"[^>]*href="\/en\/sottocategoria\/marsupi-e-zaini"/);
  expect(count(html, 'aria-current="page"')).toBe(1);
  expect(html).toContain("All of A spasso");
  expect(html).toContain('<nav aria-label="Main menu"');
});
