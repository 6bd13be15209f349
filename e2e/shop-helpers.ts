/**
 * Helpers the shopping journeys share (cart, checkout, card payment): the sample catalogue's variant ids
 * and opening a page until React has hydrated it.
 */
import type { Page } from "@playwright/test";
import { sampleCatalogue } from "../server/catalog/sample-catalogue";

/** Variant ids follow the seed's insertion order (products, then their variants, in catalogue order). */
export function variantIdOf(productId: number, match: { colour?: string; size?: string } = {}): number {
  let id = 0;
  for (const product of sampleCatalogue) {
    for (const variant of product.variants) {
      id++;
      if (product.id !== productId) continue;
      if (match.colour !== undefined && variant.colour !== match.colour) continue;
      if (match.size !== undefined && variant.size !== match.size) continue;
      return id;
    }
  }
  throw new Error(`no variant of product ${productId} matching ${JSON.stringify(match)}`);
}

/** Opens a page and waits until React has hydrated it (clicks before that are plain HTML clicks). */
export async function openHydrated(page: Page, url: string) {
  await page.goto(url);
  await page.locator('[data-toaster="hydrated"]').waitFor({ state: "attached" });
}
