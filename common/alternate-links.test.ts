import { expect, test } from "vitest";
import { alternateLinks } from "./alternate-links";

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
