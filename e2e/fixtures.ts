/**
 * What every journey imports instead of @playwright/test:
 *   import { expect, test } from "./fixtures";
 *   test("...", async ({ page, expectNoAxeViolations }) => { ...; await expectNoAxeViolations(page); });
 *
 * - `expectNoAxeViolations(page)`: axe-core on the page as it is now (WCAG 2.2 A/AA rules).
 * - Any browser console error or uncaught page error fails the test (hydration mismatches, 404 assets);
 *   a test that expects one lists it: `test.use({ allowedBrowserErrors: [/pattern/] })`.
 * - `test.use({ signedInAs: "customer" | "backOffice" })`: the test's browser starts signed in. Each worker
 *   logs in once per role and shop (a fresh customer, or the account of back-office-account.ts) and every
 *   such test starts from that session's cookies; `signedIn` is the account. `signInAs(context, role)` signs
 *   a further browser context in with the same session. Journeys about logging in fill the forms instead
 *   (shop-helpers.ts).
 * - Two projects: desktop (1280x800) runs every spec, phone (375x740) what the screen decides, in Italian
 *   (playwright.config.ts). Tag a test `@desktop-only` or `@phone-only` to keep it to one, `@server-rule`
 *   when what it checks is the server's answer whatever the screen (a refusal, a 404, structured data).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type APIRequest, type BrowserContext, type BrowserContextOptions, type Page, type TestInfo } from "@playwright/test";
import { backOfficeAccount } from "./back-office-account";
import { customerPassword, type Locale } from "./shop-helpers";

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 740 },
} as const;

const axeTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
/**
 * Pages axe passed, shared by the run's workers through files in E2E_AXE_CHECKED_DIR (e2e/server.ts makes it):
 * the two workers walk the same shop, and a page one checked the other need not check again.
 */
const checkedPages = {
  memory: new Set<string>(),
  fileOf: (key: string) => path.join(process.env.E2E_AXE_CHECKED_DIR!, crypto.createHash("sha1").update(key).digest("hex")),
  has(key: string) {
    return this.memory.has(key) || (Boolean(process.env.E2E_AXE_CHECKED_DIR) && fs.existsSync(this.fileOf(key)));
  },
  add(key: string) {
    this.memory.add(key);
    if (process.env.E2E_AXE_CHECKED_DIR) fs.writeFileSync(this.fileOf(key), key);
  },
};

export type Role = "customer" | "backOffice";
type StorageState = Exclude<BrowserContextOptions["storageState"], string | undefined>;
export type SignedInAccount = { role: Role; name: string; email: string; password: string; storageState: StorageState };

type Fixtures = {
  expectNoAxeViolations: (page: Page) => Promise<void>;
  allowedBrowserErrors: RegExp[];
  failOnBrowserErrors: void;
  signedInAs: Role | null;
  signedIn: SignedInAccount | null;
  signInAs: (context: BrowserContext, role: Role) => Promise<SignedInAccount>;
};
type WorkerFixtures = {
  accountSessions: { sessionOf: (role: Role, baseUrl: string) => Promise<SignedInAccount> };
};

export const test = base.extend<Fixtures, WorkerFixtures>({
  expectNoAxeViolations: async ({}, use, testInfo) => {
    await use((page) => base.step(`axe ${new URL(page.url()).pathname}`, () => checkAxe(page, testInfo), { box: true }));
  },

  allowedBrowserErrors: [[], { option: true }],

  signedInAs: [null, { option: true }],

  signedIn: async ({ signedInAs, baseURL, accountSessions }, use) => {
    await use(signedInAs ? await accountSessions.sessionOf(signedInAs, baseURL!) : null);
  },

  storageState: async ({ storageState, signedIn }, use) => {
    await use(signedIn?.storageState ?? storageState);
  },

  signInAs: async ({ baseURL, accountSessions }, use) => {
    await use(async (context, role) => {
      const session = await accountSessions.sessionOf(role, baseURL!);
      await context.addCookies(session.storageState.cookies);
      return session;
    });
  },

  accountSessions: [
    async ({ playwright }, use) => {
      const sessions = new Map<string, Promise<SignedInAccount>>();
      await use({
        sessionOf: (role, baseUrl) => {
          const key = `${role} ${baseUrl}`;
          if (!sessions.has(key)) sessions.set(key, signInOnce(playwright.request, role, baseUrl));
          return sessions.get(key)!;
        },
      });
    },
    { scope: "worker" },
  ],

  failOnBrowserErrors: [
    async ({ page, allowedBrowserErrors }, use) => {
      const errors: string[] = [];
      const record = (message: string) => {
        if (!allowedBrowserErrors.some((pattern) => pattern.test(message))) errors.push(message);
      };
      page.on("console", (message) => {
        if (message.type() === "error") record(`console.error on ${page.url()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => record(`uncaught ${error.name} on ${page.url()}: ${error.message}`));
      await use();
      expect(errors, "errors in the browser").toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Logs in through the login page's own form posts, without a browser: a new customer is registered first
 * (registration never signs in, decision 0012). The session's cookies become the storage state of every
 * test of this worker signed in as `role` on that shop.
 */
async function signInOnce(request: APIRequest, role: Role, baseUrl: string): Promise<SignedInAccount> {
  const account =
    role === "backOffice"
      ? // `npm run admin:create` names the account after its address.
        { role, name: backOfficeAccount.email.split("@")[0]!, ...backOfficeAccount }
      : { role, name: "Giulia Esposito", email: `cliente-${crypto.randomBytes(4).toString("hex")}@example.com`, password: customerPassword };
  // Page actions accept same-origin posts only, as a browser's form post is.
  const http = await request.newContext({ baseURL: baseUrl, extraHTTPHeaders: { Origin: new URL(baseUrl).origin } });
  try {
    const { email, password, name } = account;
    if (role === "customer") {
      const registered = await http.post("/login-register", {
        form: { intent: "register", name, email, password, passwordConfirm: password, privacy: "on" },
        maxRedirects: 0,
      });
      expect(registered.headers()["location"], `registering ${email} on ${baseUrl}`).toMatch(/notice=registered/);
    }
    const loggedIn = await http.post("/login-register", { form: { intent: "login", email, password }, maxRedirects: 0 });
    const storageState = await http.storageState();
    expect(
      storageState.cookies.map((cookie) => cookie.name),
      `logging in ${email} on ${baseUrl} (answer ${loggedIn.status()})`,
    ).toContain("better-auth.session_token");
    return { ...account, storageState };
  } finally {
    await http.dispose();
  }
}

export { expect };

/**
 * The language of a long journey through several people (the staff, the mail, a second customer): it runs once,
 * in Italian; where a file has two such journeys the second runs in English. Their English words are checked by
 * the English journeys of the customer's own screens and by the message files' tests (decision 0107).
 */
export const longJourneyLocales: readonly Locale[] = ["it"];

/**
 * A long journey through several people that the phone runs too: in Italian on the phone and in English on the
 * desktop, once per screen size and once per language (decision 0107). Its test details: `test(title, onePerScreen(locale), ...)`.
 */
export function onePerScreen(locale: Locale) {
  return { tag: locale === "it" ? ["@phone-only"] : [] };
}

/**
 * axe-core on the page as it is now. A page already checked in this run, on this viewport, with the same address
 * and the same number of elements is the same page in the same state: skipped (axe costs 2-5 s a page on 2 cores,
 * a quarter of the journeys' time). The English copy of a checked Italian page (same path under /en, same
 * elements) is the same markup with other words: skipped too; the message files are checked complete by Vitest.
 */
async function checkAxe(page: Page, testInfo: TestInfo) {
  // A page still loading (aria-busy) or fading in is not the page a person reads: wait until it settles.
  await page.waitForFunction(
    () => !document.querySelector('[aria-busy="true"]') && document.getAnimations().every((animation) => animation.playState !== "running"),
    null,
    { timeout: 10_000 },
  );
  const url = new URL(page.url());
  const samePage = `${testInfo.project.name} ${url.pathname.replace(/^\/en(?=\/|$)/, "") || "/"}${url.search} ${await page.evaluate(() => document.getElementsByTagName("*").length)}`;
  if (checkedPages.has(samePage)) return;
  // Legacy mode runs axe inside the page; the default mode opens a blank page per check to merge the frames'
  // results, which doubles the cost (measured: 2.0-2.9 s instead of 4.6-5.4 s on the home page). The shop
  // has no cross-origin frames, the only thing legacy mode cannot see into.
  // axe-core models position: sticky as relative (dequelabs/axe-core#3720): a button scrolled under the stuck
  // gift-list bar reads to its target-size rule as obscured, which scrolling undoes. For the check each stuck
  // element goes back to its place in the flow, which moves nothing else (a sticky element keeps its space).
  const unstuck = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((element) => getComputedStyle(element).position === "sticky")
      .map((element) => {
        element.dataset.axeUnstuck = "";
        element.style.position = "relative";
        return element.tagName;
      }),
  );
  const { violations } = await new AxeBuilder({ page }).withTags(axeTags).setLegacyMode(true).analyze();
  if (unstuck.length > 0)
    await page.evaluate(() => {
      for (const element of document.querySelectorAll<HTMLElement>("[data-axe-unstuck]")) {
        element.style.position = "";
        delete element.dataset.axeUnstuck;
      }
    });
  if (violations.length > 0) {
    await testInfo.attach(`axe ${page.url()}`, { body: JSON.stringify(violations, null, 2), contentType: "application/json" });
  }
  const found = violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.help} -> ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(found, `accessibility violations on ${page.url()}`).toEqual([]);
  checkedPages.add(samePage);
}
