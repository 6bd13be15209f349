import { expect, test } from "vitest";
import { defaultSettings } from "#server/settings/settings.ts";
import { openGraphMeta, productShareImage, sharingMeta } from "./open-graph";

const matches = [{ id: "root", loaderData: { publicUrl: "https://shop.example", shop: defaultSettings.shop } }, { id: "home" }];
const property = (tags: ReturnType<typeof openGraphMeta>, name: string) =>
  tags.find((tag) => "property" in tag && tag.property === name) as { content: string } | undefined;

test("every shared page has title, description, type, absolute image and its locale with the alternate", () => {
  const tags = sharingMeta({ matches, location: { pathname: "/en/about" }, meta: { title: "About us", description: "Our story" } });

  expect(tags.slice(0, 2)).toEqual([{ title: "About us | Bimbi Felici" }, { name: "description", content: "Our story" }]);
  expect(property(tags, "og:title")?.content).toBe("About us");
  expect(property(tags, "og:description")?.content).toBe("Our story");
  expect(property(tags, "og:type")?.content).toBe("website");
  expect(property(tags, "og:url")?.content).toBe("https://shop.example/en/about");
  expect(property(tags, "og:image")?.content).toBe("https://shop.example/og-image.png");
  expect(property(tags, "og:locale")?.content).toBe("en_GB");
  expect(property(tags, "og:locale:alternate")?.content).toBe("it_IT");
  expect(tags.some((tag) => "script:ld+json" in tag)).toBe(false);
});

test("Italian pages say it_IT; the home page adds the shop as JSON-LD", () => {
  const tags = sharingMeta({ matches, location: { pathname: "/" }, meta: { title: "Bimbi Felici", description: "Negozio" }, includeShop: true });

  expect(property(tags, "og:locale")?.content).toBe("it_IT");
  const jsonLd = tags.find((tag) => "script:ld+json" in tag) as { "script:ld+json": { "@type": string[] } };
  expect(jsonLd["script:ld+json"]["@type"]).toContain("Organization");
});

test("a product page shares its own picture and its price in EUR", () => {
  const tags = openGraphMeta({
    title: "Stroller",
    description: "Light",
    url: "https://shop.example/en/product/24",
    publicUrl: "https://shop.example",
    siteName: "Bimbi Felici",
    locale: "en",
    type: "product",
    image: productShareImage("p24-white-1", "Stroller, white"),
    priceCents: 19_990,
  });

  expect(property(tags, "og:type")?.content).toBe("product");
  expect(property(tags, "og:image")?.content).toBe("https://shop.example/media/products/p24-white-1-800.webp");
  expect(property(tags, "og:image:alt")?.content).toBe("Stroller, white");
  expect(property(tags, "product:price:amount")?.content).toBe("199.90");
  expect(property(tags, "product:price:currency")?.content).toBe("EUR");
});
