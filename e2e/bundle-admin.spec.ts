import crypto from "node:crypto";
import { expect as baseExpect, test } from "./fixtures";
import { openHydrated as open } from "./shop-helpers";

// Issue 41, the back office's bundle page (docs/decisions/0100-bundles.md): the staff make a product a bundle of
// the sample shampoo 71 and sponge 74 (one version each), choose the part of each combination, and the shop sells
// it at its own price with what its parts allow. Staff screen: desktop only.

const expect = baseExpect.configure({ timeout: 15_000 });
test.use({ signedInAs: "backOffice" });

test(
  "it: the staff make a bundle from its parts and combinations; the shop shows it with its price and stock",
  { tag: "@desktop-only" },
  async ({ page, expectNoAxeViolations }) => {
    // The bundle's own product is made as any product first (decision 0100): a direct post, then its one version.
    const shopUrl = process.env.E2E_BASE_URL!;
    const headers = { Origin: new URL(shopUrl).origin };
    const sku = `E2E-SET-${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const name = `Set cortesia ${sku.slice(-4)}`;
    const created = await page.request.post(`${shopUrl}/admin/prodotti/nuovo`, {
      headers,
      maxRedirects: 0,
      form: {
        intent: "save",
        sku,
        nameIt: name,
        nameEn: `Courtesy set ${sku.slice(-4)}`,
        shortDescriptionIt: "Shampoo e spugna insieme",
        shortDescriptionEn: "Shampoo and sponge together",
        price: "19,90",
        discountPercent: "0",
        vatRatePercent: "22",
        isPublished: "on",
        category: "Bagnetto",
        brands: "",
        related: "",
        personalisationCost: "0",
      },
    });
    const productId = /\/admin\/prodotti\/(\d+)/.exec(created.headers()["location"] ?? "")?.[1];
    expect(productId, `product not created: ${created.status()}`).toBeTruthy();
    await page.request.post(`${shopUrl}/admin/prodotti/${productId}`, {
      headers,
      maxRedirects: 0,
      form: { intent: "variant-add", colourId: "", size: "", sku: `${sku}-U`, stock: "0", preorderDays: "" },
    });

    await open(page, `/admin/prodotti/${productId}/bundle`);
    await expect(page.getByRole("heading", { level: 1, name: `${name} come bundle` })).toBeVisible();
    await page.getByLabel("Prezzo del bundle (€)").fill("14,90");
    await page.getByLabel("Prodotto 1 (id)").fill("71");
    await page.getByLabel("Prodotto 2 (id)").fill("74");
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Salva il bundle" }).click();
    await expect(page.getByText("Bundle salvato.")).toBeVisible();

    // The combination takes the one version of each part; saved again as chosen.
    const combinations = page.getByRole("group", { name: "Combinazioni offerte" });
    await expect(combinations.getByRole("combobox")).toHaveCount(2);
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Salva il bundle" }).click();
    await expect(page).toHaveURL(/done=saved/);

    await open(page, `/product/${productId}`);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByText(/14,90\s€/).first()).toBeVisible();
    const inside = page.getByRole("region", { name: "Cosa contiene" });
    await expect(inside.getByRole("link")).toHaveCount(2);
    await expect(inside.getByText("Disponibile", { exact: true })).toHaveCount(2);
    await expect(page.getByRole("button", { name: /Aggiungi al carrello/ })).toBeEnabled();
    await expectNoAxeViolations(page);
  },
);
