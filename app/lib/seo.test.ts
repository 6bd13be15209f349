import { expect, test } from "vitest";
import { alternateLinks, pageMeta } from "./seo";

test("every page has absolute it/en/x-default alternates and a canonical address without the query", () => {
  expect(alternateLinks("https://shop.example", "/en/centroassistenza/")).toEqual({
    canonical: "https://shop.example/en/centroassistenza/",
    alternates: [
      { hrefLang: "it", href: "https://shop.example/centroassistenza/" },
      { hrefLang: "en", href: "https://shop.example/en/centroassistenza/" },
      { hrefLang: "x-default", href: "https://shop.example/centroassistenza/" },
    ],
  });
  expect(alternateLinks("https://shop.example", "/").alternates[1]).toEqual({ hrefLang: "en", href: "https://shop.example/en" });
});

test("titles follow 'Page | Shop name'", () => {
  const matches = [{ id: "root", loaderData: { shop: { name: "Bimbi Felici" } } }, { id: "about" }];
  expect(pageMeta(matches, { title: "Chi siamo", description: "La nostra storia" })).toEqual([
    { title: "Chi siamo | Bimbi Felici" },
    { name: "description", content: "La nostra storia" },
  ]);
  expect(pageMeta(matches, undefined)).toEqual([{ title: "Bimbi Felici" }]);
});
