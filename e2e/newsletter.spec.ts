import fs from "node:fs";
import crypto from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import { startLocalSmtpServer, type LocalSmtpServer, type ReceivedMail } from "../tests/peers/local-smtp-server";
import { expect, test, viewports } from "./fixtures";
import { startPeerShop, type PeerShop } from "./peer-shop";
import { openHydrated } from "./shop-helpers";

// A shop of its own whose mail goes out through a local SMTP server (the shared e2e shop has none), with
// the back-office account, so the journey reads the opt-in mail a person gets and follows its links.
// Screenshots of each step land in /tmp/newsletter-e2e for a person to look at.
const shots = "/tmp/newsletter-e2e";

const texts = {
  it: {
    region: "Iscriviti alla newsletter",
    field: "Il tuo indirizzo e-mail",
    submit: "Iscriviti",
    required: "Scrivi il tuo indirizzo e-mail.",
    sent: "Quasi fatto!",
    subject: "Conferma la tua iscrizione alla newsletter di Bimbi Felici",
    confirm: "Conferma l'iscrizione",
    confirmed: "Iscrizione confermata.",
    unsubscribe: "Cancella l'iscrizione",
    unsubscribed: "Iscrizione cancellata",
    adminTitle: "Iscritti alla newsletter",
    statusConfirmed: "Confermato",
    statusUnsubscribed: "Cancellato",
    export: "Esporta i confermati (CSV)",
    privacy: "Come trattiamo i tuoi dati (informativa sulla privacy)",
  },
  en: {
    region: "Sign up for our newsletter",
    field: "Your e-mail address",
    submit: "Sign up",
    required: "Write your e-mail address.",
    sent: "Almost done!",
    subject: "Confirm your sign-up to the Bimbi Felici newsletter",
    confirm: "Confirm the sign-up",
    confirmed: "Sign-up confirmed.",
    unsubscribe: "Unsubscribe",
    unsubscribed: "You have unsubscribed",
    adminTitle: "Newsletter subscribers",
    statusConfirmed: "Confirmed",
    statusUnsubscribed: "Unsubscribed",
    export: "Export the confirmed (CSV)",
    privacy: "How we handle your data (privacy policy)",
  },
} as const;

test.describe("the newsletter, with its mail through a local SMTP server", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  // An empty address is answered 400 (bad input), which Chromium logs as a failed resource.
  test.use({ allowedBrowserErrors: [/status of 400 \(Bad Request\)/] });
  let shop: PeerShop;
  let smtp: LocalSmtpServer;

  test.beforeAll(async () => {
    test.setTimeout(Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 240_000) + 60_000);
    fs.mkdirSync(shots, { recursive: true });
    smtp = await startLocalSmtpServer();
    shop = await startPeerShop({ name: "newsletter", withBackOffice: true, env: () => ({ SMTP_URL: smtp.url }) });
  });
  test.afterAll(async () => {
    await shop?.stop();
    await smtp?.close();
  });

  const uniqueEmail = (name: string) => `${name}-${crypto.randomBytes(4).toString("hex")}@example.com`;

  /** Waits for the opt-in mail to `to` (the delivery job sends within seconds). */
  async function optInMail(to: string, subject: string): Promise<ReceivedMail> {
    const find = () => smtp.received.find((mail) => mail.envelopeTo.includes(to) && mail.headers.subject === subject);
    await expect.poll(() => find() !== undefined, { timeout: 60_000, intervals: [500] }).toBe(true);
    return find()!;
  }

  const linkIn = (mail: ReceivedMail, page: "conferma" | "cancellazione") =>
    new RegExp(`https?://\\S+/newsletter/${page}\\?token=[A-Za-z0-9_-]+`).exec(mail.text ?? "")![0];

  async function signInToBackOffice(
    context: BrowserContext,
    accountSessions: {
      sessionOf: (role: "backOffice", baseUrl: string) => Promise<{ storageState: { cookies: Parameters<BrowserContext["addCookies"]>[0] } }>;
    },
  ) {
    const session = await accountSessions.sessionOf("backOffice", shop.baseUrl);
    await context.addCookies(session.storageState.cookies);
  }

  async function subscriberRow(page: Page, email: string) {
    return page
      .getByRole("table", { name: /newsletter/i })
      .getByRole("row")
      .filter({ hasText: email });
  }

  test("sign up from the footer in Italian, confirm from the mail, see it in the back office, export, unsubscribe", async ({
    page,
    context,
    accountSessions,
    expectNoAxeViolations,
  }, testInfo) => {
    const t = texts.it;
    const email = uniqueEmail("iscrizione");
    await openHydrated(page, `${shop.baseUrl}/`);
    const footer = page.getByRole("region", { name: t.region });
    await expect(footer.getByRole("link", { name: t.privacy })).toHaveAttribute("href", "/privacy");

    // Nothing typed: the shop's own message, the field marked and focused (no browser bubble, no error page).
    await footer.getByRole("button", { name: t.submit }).click();
    await expect(footer.getByRole("alert")).toHaveText(t.required);
    const field = footer.getByRole("textbox", { name: t.field });
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toBeFocused();

    await field.fill(email);
    await footer.getByRole("button", { name: t.submit }).click();
    await expect(footer.getByRole("status")).toContainText(t.sent);
    await expect(page).toHaveURL(`${shop.baseUrl}/`);
    await footer.screenshot({ path: `${shots}/footer-it-${testInfo.project.name}.png` });
    await expectNoAxeViolations(page);

    const mail = await optInMail(email, t.subject);
    const unsubscribeLink = linkIn(mail, "cancellazione");
    expect(mail.headers["list-unsubscribe"]).toBe(`<${unsubscribeLink}>`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail.html).toContain(`href="${unsubscribeLink}"`);

    await openHydrated(page, linkIn(mail, "conferma"));
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: t.confirm }).click();
    await expect(page.getByRole("status").filter({ hasText: t.confirmed })).toBeVisible();
    await page.screenshot({ path: `${shots}/confirmed-it-${testInfo.project.name}.png` });
    await expectNoAxeViolations(page);

    await signInToBackOffice(context, accountSessions);
    await openHydrated(page, `${shop.baseUrl}/admin/newsletter`);
    await expect(page.getByRole("heading", { level: 1, name: t.adminTitle })).toBeVisible();
    await expect(await subscriberRow(page, email)).toContainText(t.statusConfirmed);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${shots}/admin-it-${testInfo.project.name}.png`, fullPage: true });

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: t.export }).click()]);
    const csv = fs.readFileSync(await download.path(), "utf8");
    expect(csv.startsWith("\uFEFFemail,language,confirmed_at,consent_version,consent_at\r\n")).toBe(true);
    expect(csv).toMatch(new RegExp(`\\r\\n${email.replace(/[.]/g, "\\.")},it,\\d{4}-\\d\\d-\\d\\dT`));

    await openHydrated(page, unsubscribeLink);
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: t.unsubscribe }).click();
    await expect(page.getByRole("status").filter({ hasText: t.unsubscribed })).toBeVisible();
    await openHydrated(page, `${shop.baseUrl}/admin/newsletter`);
    await expect(await subscriberRow(page, email)).toContainText(t.statusUnsubscribed);
  });

  test("in English without JavaScript: the sign-up page answers, the mail is English, a mail client's one-click unsubscribes", async ({
    browser,
    page,
    context,
    accountSessions,
    expectNoAxeViolations,
  }, testInfo) => {
    const t = texts.en;
    const email = uniqueEmail("signup");
    const phone = testInfo.project.name === "phone";
    const noScript = await browser.newContext({
      javaScriptEnabled: false,
      viewport: phone ? viewports.phone : viewports.desktop,
      isMobile: phone,
      hasTouch: phone,
    });
    const plain = await noScript.newPage();
    await plain.goto(`${shop.baseUrl}/en/about`);
    const footer = plain.getByRole("region", { name: t.region });
    await footer.getByRole("textbox", { name: t.field }).fill(email);
    await footer.getByRole("button", { name: t.submit }).click();
    await expect(plain).toHaveURL(`${shop.baseUrl}/en/newsletter`);
    await expect(plain.getByRole("status").filter({ hasText: t.sent })).toBeVisible();
    await plain.screenshot({ path: `${shots}/no-script-en-${testInfo.project.name}.png` });
    // No axe here: it runs as a script in the page, which this context does not allow (it never answers).
    await noScript.close();

    const mail = await optInMail(email, t.subject);
    expect(mail.text).toContain("/en/newsletter/conferma?token=");
    await openHydrated(page, linkIn(mail, "conferma"));
    await page.getByRole("button", { name: t.confirm }).click();
    await expect(page.getByRole("status").filter({ hasText: t.confirmed })).toBeVisible();
    await expectNoAxeViolations(page);

    await signInToBackOffice(context, accountSessions);
    await openHydrated(page, `${shop.baseUrl}/en/admin/newsletter?status=confirmed`);
    await expect(await subscriberRow(page, email)).toContainText(t.statusConfirmed);
    await expectNoAxeViolations(page);

    // What a mail client's own "unsubscribe" button does (RFC 8058): a POST to the header's link, no page, no login.
    const oneClick = await page.request.post(/<(.+)>/.exec(mail.headers["list-unsubscribe"]!)![1]!, {
      form: { "List-Unsubscribe": "One-Click" },
      headers: { Cookie: "" },
      maxRedirects: 0,
    });
    expect(oneClick.status()).toBeLessThan(400);
    await openHydrated(page, `${shop.baseUrl}/en/admin/newsletter?status=unsubscribed`);
    await expect(await subscriberRow(page, email)).toContainText(t.statusUnsubscribed);
    await page.screenshot({ path: `${shots}/admin-en-${testInfo.project.name}.png`, fullPage: true });
  });
});
