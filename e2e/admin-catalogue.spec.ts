import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { csvColumns } from "../server/admin/product-csv";
import { expect as baseExpect, test as shopTest } from "./fixtures";
import { startPeerShop, type PeerShop } from "./peer-shop";
import { addToCart, openHydrated as open, variantIdOf } from "./shop-helpers";

// Issue 8, back office. A shop of its own, started from the run's seeded folder with the back-office account
// the other journeys use (e2e/shop-templates.ts). It runs no Stripe peer, so card orders are paid on the labelled test-payment page and
// refunded through the test provider. Each form is a full page load: give them time on a busy 2-core machine.
const root = path.resolve(import.meta.dirname, "..");
const shotsDir = process.env.ADMIN_SHOTS_DIR;

/**
 * Every page and sign-in of this spec is on the worker's own shop (`adminShop`): a worker fixture, not a
 * beforeAll, because `baseURL` (and with it the signed-in storage state) is needed before a beforeAll runs.
 */
const test = shopTest.extend<Record<never, never>, { adminShop: PeerShop }>({
  adminShop: [
    async ({}, use) => {
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-e2e-admin-"));
      // Uploaded pictures go to a copy of the drawn sample pictures, not to the shared cache.
      const mediaDir = path.join(scratch, "media");
      fs.cpSync(path.resolve(root, "node_modules/.cache/e2e-media"), mediaDir, { recursive: true });
      const shop = await startPeerShop({ name: "admin", withBackOffice: true, env: () => ({ MEDIA_DIR: mediaDir, SEED_SAMPLE_DATA: "true" }) });
      await use(shop);
      await shop.stop();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 300_000 },
  ],
  baseURL: async ({ adminShop }, use) => use(adminShop.baseUrl),
});

const expect = baseExpect.configure({ timeout: 15_000 });
// The 401/403 pages for the guest and the customer, and refused forms (400), are logged by Chromium as failed resources.
// The journeys are the administrator's unless they say otherwise.
test.use({ allowedBrowserErrors: [/status of (400|401|403)/], signedInAs: "backOffice" });
test.describe.configure({ timeout: 180_000 });

const main = (page: Page) => page.locator("main");

async function shot(page: Page, name: string) {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}-${page.viewportSize()?.width}.png`), fullPage: true });
}

async function uploadPicture(input: ReturnType<Page["getByLabel"]>, name: string, colour: { r: number; g: number; b: number }) {
  const buffer = await sharp({ create: { width: 640, height: 640, channels: 3, background: colour } })
    .png()
    .toBuffer();
  await input.setInputFiles({ name, mimeType: "image/png", buffer });
}

function csvLine(values: Record<string, string>): string {
  return csvColumns.map((column) => values[column] ?? "").join(";");
}

const csvBase = {
  name_en: "Cotton bodysuit",
  price: "12,50",
  discount_percent: "0",
  vat_rate_percent: "22",
  is_new: "1",
  is_free_shipping: "0",
  is_on_request: "0",
  is_published: "1",
  category: "abbigliamento",
  subcategory: "Tutine-Body",
  brands: "Chicco",
  personalisation_cost: "0",
  is_preorder: "0",
};

test(
  "an administrator creates a product with colours, sizes and a picture, adjusts its stock and imports a CSV and the old JSON",
  { tag: "@desktop-only" },
  async ({ page, expectNoAxeViolations }) => {
    await open(page, "/admin/prodotti");
    await expect(page.getByRole("heading", { level: 1, name: "Prodotti" })).toBeVisible();
    await expectNoAxeViolations(page);
    await shot(page, "products");

    // The product itself.
    await page.getByRole("link", { name: "Nuovo prodotto" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Nuovo prodotto" })).toBeVisible();
    await expectNoAxeViolations(page);
    const fields = page.getByRole("form", { name: "Dati del prodotto" });
    await fields.getByLabel(/^SKU/).fill("BFE-E2E-1");
    await fields.getByLabel("Prezzo (€, IVA inclusa)").fill("abc");
    await fields.getByLabel("Nome (italiano)").fill("Tutina Golfo di Napoli");
    await fields.getByLabel("Nome (inglese)").fill("Gulf of Naples sleepsuit");
    await fields.getByLabel("Categoria", { exact: true }).selectOption("abbigliamento");
    await fields.getByLabel("Marche").fill("Chicco");
    await fields.getByRole("button", { name: "Salva il prodotto" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Alcuni campi vanno corretti" })).toBeVisible();
    await expect(fields.getByLabel("Prezzo (€, IVA inclusa)")).toHaveAccessibleDescription(/Scrivi il prezzo in euro, per esempio 12,50\./);
    await expect(fields.getByLabel("Nome (italiano)")).toHaveValue("Tutina Golfo di Napoli");
    await expectNoAxeViolations(page);
    await fields.getByLabel("Prezzo (€, IVA inclusa)").fill("24,90");
    await fields.getByRole("button", { name: "Salva il prodotto" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Prodotto creato." })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Tutina Golfo di Napoli" })).toBeVisible();
    const productPath = new URL(page.url()).pathname;
    const productId = productPath.split("/").at(-1)!;

    // Two colours, the first with a picture.
    const colours = page.getByRole("region", { name: "Colori e foto" });
    await colours.getByLabel("Nuovo colore").fill("white");
    await uploadPicture(colours.getByLabel("Foto (facoltativa)"), "tutina-bianca.png", { r: 240, g: 240, b: 235 });
    await colours.getByRole("button", { name: "Aggiungi colore" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Colore aggiunto." })).toBeVisible();
    await expect(colours.getByRole("img", { name: "Tutina Golfo di Napoli - white" })).toBeVisible();
    await colours.getByLabel("Nuovo colore").fill("blue");
    await colours.getByRole("button", { name: "Aggiungi colore" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Colore aggiunto." })).toBeVisible();
    await expect(colours.getByRole("heading", { level: 3, name: "blue" })).toBeVisible();
    // The form starts empty again: the white picture is not sent a second time with the blue.
    await expect(colours.getByLabel("Nuovo colore")).toHaveValue("");
    await expect(colours.getByRole("img")).toHaveCount(1);

    // Three sizes in each colour.
    const sizes = page.getByRole("region", { name: "Taglie e scorte" });
    const stocks: Record<string, number> = { s: 4, m: 6, l: 2 };
    for (const colour of ["white", "blue"]) {
      for (const size of ["s", "m", "l"]) {
        const form = sizes.getByRole("form", { name: "Aggiungi taglia" });
        await form.getByLabel("Colore").selectOption({ label: colour });
        await form.getByLabel("Taglia", { exact: true }).fill(size);
        const sku = `BFE-E2E-1-${colour[0]!.toUpperCase()}-${size.toUpperCase()}`;
        await form.getByLabel("SKU").fill(sku);
        await form.getByLabel("Scorte").fill(String(stocks[size]));
        await form.getByRole("button", { name: "Aggiungi taglia" }).click();
        await expect(page.getByRole("status").filter({ hasText: "Taglia aggiunta." })).toBeVisible();
        // The page comes back with the new row and an empty form.
        await expect(sizes.getByRole("row").filter({ hasText: sku })).toBeVisible();
      }
    }
    await expect(sizes.getByRole("table").getByRole("row")).toHaveCount(7);

    // The blue L becomes a pre-order: the days are asked for, then saved.
    await sizes.getByText("Modifica", { exact: true }).last().click();
    const blueL = sizes.getByRole("form", { name: "Modifica la taglia blue · l" });
    await blueL.getByLabel("Su prenotazione").check();
    await blueL.getByRole("button", { name: "Salva la taglia" }).click();
    await expect(
      sizes.getByRole("form", { name: "Modifica la taglia blue · l" }).getByLabel("Giorni di consegna (prenotazione)"),
    ).toHaveAccessibleDescription(/Indica i giorni di consegna della prenotazione\./);
    await expectNoAxeViolations(page);
    await blueL.getByLabel("Giorni di consegna (prenotazione)").fill("12");
    await blueL.getByRole("button", { name: "Salva la taglia" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Taglia salvata." })).toBeVisible();
    await expect(sizes.getByRole("row").filter({ hasText: "BFE-E2E-1-B-L" })).toContainText("consegna in 12 giorni");
    await expectNoAxeViolations(page);
    await shot(page, "product-edit");

    // Stock: take 2 away from the white M (6 → 4), never below zero.
    const adjust = sizes.getByRole("form", { name: "Rettifica scorte" });
    await adjust.getByLabel("Taglia").selectOption({ label: "white · m · BFE-E2E-1-W-M (6)" });
    await adjust.getByLabel("Quantità da aggiungere o togliere").fill("-9");
    await adjust.getByLabel("Motivo").fill("Inventario");
    await adjust.getByRole("button", { name: "Registra rettifica" }).click();
    await expect(sizes.getByRole("form", { name: "Rettifica scorte" }).getByLabel("Quantità da aggiungere o togliere")).toHaveAccessibleDescription(
      /Non ci sono abbastanza pezzi da togliere\./,
    );
    await expectNoAxeViolations(page);
    await adjust.getByLabel("Taglia").selectOption({ label: "white · m · BFE-E2E-1-W-M (6)" });
    await adjust.getByLabel("Quantità da aggiungere o togliere").fill("-2");
    await adjust.getByLabel("Motivo").fill("Due pezzi rovinati");
    await adjust.getByRole("button", { name: "Registra rettifica" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Scorte rettificate." })).toBeVisible();
    await expect(sizes.getByText(/BFE-E2E-1-W-M · -2 · Due pezzi rovinati/)).toBeVisible();

    // In the shop: the colours, the sizes and the stock left.
    await open(page, `/product/${productId}?colour=white&size=m`);
    await expect(page.getByRole("heading", { level: 1, name: "Tutina Golfo di Napoli" })).toBeVisible();
    await expect(
      main(page)
        .getByRole("group", { name: /^Colore/ })
        .getByRole("link"),
    ).toHaveCount(2);
    await expect(
      main(page)
        .getByRole("group", { name: /^Taglia/ })
        .getByRole("link"),
    ).toHaveCount(3);
    await expect(main(page).getByText("Disponibili: 4")).toBeVisible();
    // .first(): the phone sticky add bar repeats the price further down.
    await expect(main(page).getByText("24,90").first()).toBeVisible();

    // CSV: the dry run shows the bad row and imports nothing; the real run imports the rest.
    await open(page, "/admin/importa");
    await expectNoAxeViolations(page);
    await shot(page, "import");
    const csv = [
      csvColumns.join(";"),
      csvLine({
        ...csvBase,
        product_sku: "CSV-E2E-1",
        name_it: "Body cotone Capri",
        colour: "white",
        size: "m",
        variant_sku: "CSV-E2E-1-W-M",
        stock: "5",
      }),
      csvLine({
        ...csvBase,
        product_sku: "CSV-E2E-1",
        name_it: "Body cotone Capri",
        colour: "white",
        size: "l",
        variant_sku: "CSV-E2E-1-W-L",
        stock: "3",
      }),
      csvLine({ ...csvBase, product_sku: "CSV-E2E-2", name_it: "Body cotone Ischia", price: "-4", variant_sku: "CSV-E2E-2-U", stock: "1" }),
      csvLine({
        ...csvBase,
        product_sku: "CSV-E2E-3",
        name_it: "Body cotone Procida",
        variant_sku: "CSV-E2E-3-U",
        stock: "1",
        manufacturer: "Fabbrica Inesistente",
      }),
    ].join("\n");
    const csvForm = page.getByRole("form", { name: "File CSV (una riga per taglia)" });
    await csvForm.getByLabel("File").setInputFiles({ name: "prodotti.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await csvForm.getByRole("button", { name: "Prova (non importa nulla)" }).click();
    const dryReport = page.getByRole("region", { name: "Risultato della prova (nulla è stato importato)" });
    await expect(dryReport).toBeVisible();
    await expect(dryReport.getByRole("row").filter({ hasText: "price" })).toContainText("4");
    await expect(dryReport.getByRole("row").filter({ hasText: "price" })).toContainText("Il prezzo non può essere negativo.");
    await expect(dryReport.getByRole("row").filter({ hasText: "manufacturer" })).toContainText("Produttore sconosciuto");
    await expectNoAxeViolations(page);
    await shot(page, "import-dry");
    await open(page, "/admin/prodotti?q=CSV-E2E");
    await expect(page.getByText("0 prodotti")).toBeVisible();

    await open(page, "/admin/importa");
    await csvForm.getByLabel("File").setInputFiles({ name: "prodotti.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await csvForm.getByRole("button", { name: "Importa", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Importazione" }).or(page.getByRole("heading", { level: 1 }))).toBeVisible();
    const runReport = page.getByRole("region", { name: "Risultato dell'importazione" });
    await expect(runReport).toBeVisible({ timeout: 30_000 });
    await expect(runReport.getByRole("row").filter({ hasText: "price" })).toContainText("Il prezzo non può essere negativo.");
    await expectNoAxeViolations(page);
    await open(page, "/admin/prodotti?q=CSV-E2E");
    await expect(page.getByText("1 prodotto", { exact: true })).toBeVisible();
    await expect(main(page).getByRole("link", { name: "Body cotone Capri" })).toBeVisible();

    // A sample of the old back end's JSON: one product imported, its repeat reported.
    const legacy = [
      {
        idArticolo: 9024,
        sku: "LEG-E2E",
        nomeArticolo: "Culla Sogno Partenopeo",
        prezzo: 249.9,
        descrizione: "Culla in legno",
        categoria: "arredamento",
        sottoCategoria: "Culle-per-neonati",
        marca: "Foppapedretti",
        ultimiArrivi: true,
        offerta: 0,
        gratis: 1,
        coloriDisp: [{ color: "white", image: ["culla-bianca.jpg"], size: { TAGLIA_UNICA: { stock: 3, prenotazione: "No", giorni: 0 } } }],
      },
      { idArticolo: 9025, sku: "LEG-E2E", nomeArticolo: "Culla Sogno Partenopeo", prezzo: 249.9, categoria: "arredamento", coloriDisp: [] },
    ];
    await open(page, "/admin/importa");
    const legacyForm = page.getByRole("form", { name: "JSON del vecchio gestionale" });
    await legacyForm
      .getByLabel("File")
      .setInputFiles({ name: "articoli.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(legacy)) });
    await legacyForm.getByRole("button", { name: "Importa", exact: true }).click();
    const legacyReport = page.getByRole("region", { name: "Risultato dell'importazione" });
    await expect(legacyReport).toBeVisible({ timeout: 30_000 });
    await expect(legacyReport).toContainText("LEG-E2E");
    await expectNoAxeViolations(page);
    await shot(page, "import-legacy");
    await open(page, "/admin/prodotti?q=LEG-E2E");
    await expect(main(page).getByRole("link", { name: "Culla Sogno Partenopeo" })).toBeVisible();

    // Every change is in the activity log.
    await open(page, "/admin/registro");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoAxeViolations(page);
    await shot(page, "audit");
  },
);

test(
  "an administrator ships and refunds a card order, changes the opening hours, and finds gift lists and customers",
  { tag: "@desktop-only" },
  async ({ page, adminShop, signedIn, expectNoAxeViolations }) => {
    test.setTimeout(300_000);
    const adminName = signedIn!.name;
    // No sale yet in this shop: the dashboard says so instead of drawing an empty chart.
    await open(page, "/admin");
    await expect(main(page).getByText("Nessuna vendita negli ultimi 30 giorni", { exact: false })).toBeVisible();
    await expect(main(page).locator('svg[preserveAspectRatio="none"]')).toHaveCount(0);

    // The administrator orders product 127 (49,90 €) by card with standard delivery (6,90 €), on the test-payment page.
    await addToCart(page, variantIdOf(127), 1, { shopUrl: adminShop.baseUrl });
    await open(page, "/checkout");
    const field = (name: string) => page.getByRole("textbox", { name, exact: true });
    for (const [name, value] of [
      ["Nome", "Titolare"],
      ["Cognome", "Bimbi"],
      ["Telefono", "+39 333 765 4321"],
      ["Indirizzo (via, piazza)", "Via dei Fori Imperiali"],
      ["Numero civico", "1"],
      ["CAP", "00186"],
      ["Città", "Roma"],
      ["Provincia", "RM"],
    ])
      await field(name!).fill(value!);
    await page.getByRole("radio", { name: /^Spedizione in Italia/ }).check();
    await page.getByRole("radio", { name: /^Carta di credito o di debito/ }).check();
    await page.getByRole("checkbox", { name: /Ho letto e accetto le condizioni di vendita/ }).check();
    await page.getByRole("button", { name: "Ordine con obbligo di pagamento" }).click();
    await expect(page).toHaveURL(/\/pagamento-di-prova\//);
    await page.getByRole("button", { name: /^Paga / }).click();
    await expect(page.getByTestId("order-status")).toHaveText("Stato: Pagato", { timeout: 20_000 });
    const orderId = /\/ordine\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const orderNumber = /Ordine n. (\d+)/.exec((await page.getByRole("heading", { level: 1 }).textContent()) ?? "")![1]!;

    // Paid -> preparing -> shipped with a carrier, then refunded on the card; the history says so in words.
    await open(page, `/admin/ordini/${orderId}`);
    await page.getByRole("button", { name: "Passa a «In preparazione»" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Stato dell'ordine aggiornato." })).toBeVisible();
    await page.getByLabel("Corriere", { exact: true }).selectOption({ label: "BRT" });
    await page.getByLabel("Numero di tracciamento").fill("BRT123456");
    await page.getByRole("button", { name: "Segna come spedito e avvisa il cliente" }).click();
    await expect(page.getByText("Stato: Spedito")).toBeVisible();
    await expect(page.getByRole("link", { name: "Segui la spedizione sul sito di BRT" })).toHaveAttribute(
      "href",
      /^https:\/\/vas\.brt\.it\/.*BRT123456$/,
    );
    await page.getByRole("button", { name: "Rimborsa 56,80 € sulla carta" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Rimborso registrato." })).toBeVisible();
    await expect(page.getByText("Stato: Rimborsato")).toBeVisible();
    const history = page.getByRole("list").filter({ hasText: "Ordine ricevuto." });
    await expect(history).toContainText("Pagamento registrato: carta (pagamento di prova).");
    await expect(history).toContainText(/Rimborso eseguito: Carta di credito o di debito, riferimento \S+/);
    await expect(history).not.toContainText(/paid:|refund:/);
    await expectNoAxeViolations(page);
    await shot(page, "order-refunded");

    // New opening hours show in the shop's footer at once.
    await open(page, "/admin/impostazioni");
    const shopForm = page.locator("form#shop");
    await shopForm.getByLabel("Orari: Sabato").fill("09:00-13:00");
    await shopForm.getByRole("button", { name: "Salva «Dati del negozio e orari»" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Salvato: Dati del negozio e orari." })).toBeVisible();
    await open(page, "/");
    const saturday = page.getByRole("contentinfo").locator("dl div").filter({ hasText: "Sabato" }).first();
    await expect(saturday).toHaveText(/^Sabato\s*09:00-13:00$/);

    // A gift list of the administrator's own, found in the back office by its code and closed there.
    await open(page, "/crea-lista-nascita");
    const listTitle = `Lista del negozio ${crypto.randomBytes(3).toString("hex")}`;
    const listForm = page.getByRole("form", { name: "Crea una nuova lista" });
    await listForm.getByLabel("Titolo della lista").fill(listTitle);
    const eventDate = new Date(Date.now() + 20 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    await listForm.getByLabel("Data dell'evento").fill(eventDate);
    await listForm.getByLabel("Nomi dei festeggiati").fill("Sofia");
    await listForm.getByLabel("Messaggio per gli invitati").fill("Grazie!");
    await listForm.getByRole("button", { name: "Crea la lista" }).click();
    await expect(page.getByRole("status").filter({ hasText: "La lista è stata creata." })).toBeVisible();
    const code = (await page.getByRole("article", { name: listTitle }).locator("strong.font-mono").textContent())!.trim();

    await open(page, `/admin/liste-regalo?q=${code.toLowerCase()}`);
    await expect(page.getByRole("status").filter({ hasText: "1 lista" })).toBeVisible();
    await expectNoAxeViolations(page);
    await shot(page, "gift-lists");
    await main(page).getByRole("link", { name: listTitle }).click();
    await expect(page.getByRole("heading", { level: 1, name: listTitle })).toBeVisible();
    await expect(main(page)).toContainText("Ritiro in negozio");
    await page.getByRole("button", { name: "Chiudi la lista (non si potranno più fare regali)" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Lista chiusa" })).toBeVisible();
    await expect(main(page)).toContainText(`${code} · Chiusa`);
    await expectNoAxeViolations(page);
    await shot(page, "gift-list");

    // The administrator as a customer, in English: the order and the list, and no word of a password.
    await open(page, `/en/admin/clienti?q=${adminName}`);
    await expect(page.getByRole("status").filter({ hasText: "1 account" })).toBeVisible();
    await expectNoAxeViolations(page);
    await shot(page, "customers");
    await main(page).getByRole("link", { name: adminName, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: adminName })).toBeVisible();
    await expect(main(page).getByRole("link", { name: `Order no. ${orderNumber}` })).toBeVisible();
    await expect(main(page).getByRole("link", { name: listTitle })).toBeVisible();
    await expect(main(page)).not.toContainText(/password/i);
    await expectNoAxeViolations(page);
    await shot(page, "customer");

    // Every change is in the activity log.
    await open(page, "/admin/registro");
    for (const action of ["order.status", "order.refund", "settings.update", "giftList.close"])
      await expect(main(page).getByText(action, { exact: true }).first()).toBeVisible();
  },
);

test.describe("a guest", () => {
  test.use({ signedInAs: null });

  // Desktop only: the refusal is the server's; the 401 page itself is checked on the phone in accounts.spec.ts.
  test("a guest asking for the back office gets the login page (401)", { tag: "@desktop-only" }, async ({ page, expectNoAxeViolations }) => {
    const guest = await open(page, "/admin/prodotti");
    expect(guest?.status()).toBe(401);
    await expectNoAxeViolations(page);
  });
});

test.describe("a customer", () => {
  test.use({ signedInAs: "customer" });

  // Desktop only: the refusal is the server's; the phone's back-office pages are checked below on a small screen.
  test("a customer gets the 403 page on every back-office page", { tag: "@desktop-only" }, async ({ page, expectNoAxeViolations }) => {
    for (const url of ["/admin", "/admin/prodotti/nuovo", "/en/admin/importa"]) {
      const response = await open(page, url);
      expect(response?.status(), url).toBe(403);
      await expect(page.getByRole("heading", { level: 1, name: url.startsWith("/en") ? /restricted|admin/i : "Accesso riservato" })).toBeVisible();
    }
    await expectNoAxeViolations(page);
  });
});

test("the back office on a small screen and in English: every page readable and accessible", async ({ page, expectNoAxeViolations }) => {
  for (const url of [
    "/admin",
    "/admin/prodotti",
    "/admin/prodotti/nuovo",
    "/admin/prodotti/184",
    "/admin/importa",
    "/admin/registro",
    "/en/admin/prodotti",
    "/en/admin/prodotti/24",
    "/en/admin/importa",
  ]) {
    const response = await open(page, url);
    expect(response?.status(), url).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Nothing wider than the screen but the tables, which scroll inside their own box.
    const tooWide = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      if (document.documentElement.scrollWidth <= width) return [];
      const scrollsInside = (element: Element) => {
        for (let parent = element.parentElement; parent; parent = parent.parentElement)
          if (getComputedStyle(parent).overflowX !== "visible" || getComputedStyle(parent).position === "fixed") return true;
        return false;
      };
      return [...document.querySelectorAll("body *")]
        .filter(
          (element) => element.getBoundingClientRect().right > width + 1 && getComputedStyle(element).position !== "fixed" && !scrollsInside(element),
        )
        .map((element) => `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().right)} px)`)
        .slice(0, 5);
    });
    expect(tooWide, `${url} scrolls sideways`).toEqual([]);
    await expectNoAxeViolations(page);
    await shot(page, url.replaceAll("/", "_").slice(1));
  }
});

test(
  "a CSV saved by Italian Excel in Windows-1252 imports with its accents; a UTF-16 file is refused",
  { tag: "@desktop-only" },
  async ({ page }) => {
    const csv = [
      csvColumns.join(";"),
      csvLine({
        ...csvBase,
        product_sku: "CSV-1252",
        name_it: "Culla in legno è bianca",
        category: "arredamento",
        subcategory: "Culle-per-neonati",
        variant_sku: "CSV-1252-U",
        stock: "2",
      }),
    ].join("\r\n");
    // Windows-1252 writes "è" as the one byte 0xE8, which is not UTF-8.
    const windows1252 = Buffer.from(csv, "latin1");
    await open(page, "/admin/importa");
    const csvForm = page.getByRole("form", { name: "File CSV (una riga per taglia)" });
    await csvForm.getByLabel("File").setInputFiles({ name: "excel.csv", mimeType: "text/csv", buffer: windows1252 });
    await csvForm.getByRole("button", { name: "Importa", exact: true }).click();
    await expect(page.getByRole("region", { name: "Risultato dell'importazione" })).toBeVisible({ timeout: 30_000 });
    await open(page, "/admin/prodotti?q=CSV-1252");
    await expect(main(page).getByRole("link", { name: "Culla in legno è bianca" })).toBeVisible();

    await open(page, "/admin/importa");
    await csvForm.getByLabel("File").setInputFiles({ name: "unicode.txt", mimeType: "text/plain", buffer: Buffer.from(`\uFEFF${csv}`, "utf16le") });
    await csvForm.getByRole("button", { name: "Prova (non importa nulla)" }).click();
    await expect(main(page).getByRole("alert").filter({ hasText: "Il file non è un testo in UTF-8 né in Windows-1252" })).toBeVisible();
  },
);
