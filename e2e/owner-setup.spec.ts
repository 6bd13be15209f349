import type { Page } from "@playwright/test";
import { expect as baseExpect, test } from "./fixtures";
import { startPeerShop, type PeerShop } from "./peer-shop";
import { openHydrated } from "./shop-helpers";

// Creating the account hashes a password (scrypt): on a busy 2-core machine the answer can take seconds.
const expect = baseExpect.configure({ timeout: 15_000 });

// /admin before any administrator answers 401; a refused link 403; a refused form 400.
test.use({ allowedBrowserErrors: [/status of (400|401|403)/] });
test.describe.configure({ timeout: 180_000 });

let shop: PeerShop;
const submit = "Crea l'account ed entra nel pannello";
// The page's own form: the footer has an e-mail field of its own (the newsletter).
const form = (page: Page) => page.getByRole("main");

test.beforeAll(async () => {
  test.setTimeout(Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 240_000) + 60_000);
  // A shop of its own with no administrator (the shared one has the journeys' back-office account).
  shop = await startPeerShop({ name: "owner-setup", keepOutput: true, env: () => ({ SEED_SAMPLE_DATA: "false", LOG_LEVEL: "info" }) });
});

test.afterAll(async () => {
  await shop?.stop();
});

/** The setup link from the shop's "shop ready" log line, as the owner copies it from the terminal. */
function printedSetupLink(): string {
  const ready = shop
    .output()
    .split("\n")
    .filter((line) => line.includes('"shop ready"'))
    .map((line) => JSON.parse(line) as { setupUrl?: string })
    .at(-1);
  if (!ready?.setupUrl) throw new Error(`no setup link in the shop's output:\n${shop.output()}`);
  return ready.setupUrl;
}

test("the owner's first visit: /admin explains the setup link, which creates her account once", async ({ page, expectNoAxeViolations }) => {
  await openHydrated(page, `${shop.baseUrl}/admin`);
  await expect(page.getByRole("heading", { level: 1, name: "Crea l'account del titolare" })).toBeVisible();
  await expect(page.getByText(/un link di configurazione, ad esempio http:\/\/localhost:3000\/admin\/setup\?token=/)).toBeVisible();
  await expectNoAxeViolations(page);

  const link = printedSetupLink();
  await openHydrated(page, link.replace(/token=./, "token=x"));
  await expect(page.getByText("Questo link di configurazione non è valido: è già stato usato, è scaduto o è incompleto.")).toBeVisible();
  await expect(page.getByRole("button", { name: submit })).toHaveCount(0);

  await openHydrated(page, link);
  await expectNoAxeViolations(page);
  await form(page).getByLabel("Nome e cognome").fill("Carla Esposito");
  await form(page).getByLabel("E-mail").fill("carla@bimbifelici.test");
  await form(page).locator("input[name=password]").fill("password123");
  await form(page).getByLabel("Conferma password").fill("password123");
  await page.getByRole("button", { name: submit }).click();
  await expect(page.getByText(/troppo comune|facile da indovinare/)).toBeVisible();
  await expect(form(page).getByLabel("E-mail")).toHaveValue("carla@bimbifelici.test");

  await form(page).locator("input[name=password]").fill("Culla-Verde-Sorrento-71");
  await form(page).getByLabel("Conferma password").fill("Culla-Verde-Sorrento-71");
  await page.getByRole("button", { name: submit }).click();
  await expect(page).toHaveURL(`${shop.baseUrl}/admin`);
  await expect(page.getByText("Carla Esposito", { exact: false }).first()).toBeVisible();
  await expectNoAxeViolations(page);

  // The same link once more: the owner exists, so it only points to the login.
  await openHydrated(page, link);
  await expect(page.getByText("L'account del titolare esiste già: accedi con la sua e-mail e password.")).toBeVisible();
  await expect(page.getByRole("button", { name: submit })).toHaveCount(0);
});
