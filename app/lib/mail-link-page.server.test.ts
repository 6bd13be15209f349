import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { newsletterSubscribers, outboxEmails } from "#server/db/schema.ts";
import { NewsletterToken } from "#server/newsletter/newsletter.inputs.ts";
import { confirmNewsletterSubscription, signUpForNewsletter, unsubscribeFromNewsletter } from "#server/newsletter/newsletter.service.ts";
import { createTestDb } from "#tests/db.ts";
import { answerMailLinkPost, loadMailLinkPage } from "./mail-link-page.server";

const shop = "https://www.bimbifelici.example";

/** A new subscriber's database and the tokens of its opt-in mail's two links. */
async function subscribed(email: string) {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const { db } = handle;
  await signUpForNewsletter(db, { email }, { locale: "it", publicUrl: shop });
  const [mail] = await db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, email));
  const tokenOf = (page: string) => new RegExp(`/newsletter/${page}\\?token=([A-Za-z0-9_-]+)`).exec(mail!.textBody)![1]!;
  const status = async () => (await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)))[0]!.status;
  return { db, confirm: tokenOf("conferma"), unsubscribe: tokenOf("cancellazione"), status };
}

/** What the action gave: the redirect it threw, or the answer it returned. */
async function outcome(answer: () => Promise<unknown>) {
  try {
    const returned = (await answer()) as { init: { status: number }; data: unknown };
    return { status: returned.init.status, data: returned.data };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { status: thrown.status, location: thrown.headers.get("Location") };
  }
}

test("opening a link reads its token and changes nothing; a malformed token reads as none", async () => {
  const { confirm, status } = await subscribed("apre@example.it");
  const page = loadMailLinkPage(new URL(`${shop}/newsletter/conferma?token=${confirm}`), NewsletterToken, "newsletter.confirm");
  expect(page).toMatchObject({ token: confirm, done: false, meta: { title: expect.any(String) } });
  expect(await status()).toBe("pending");
  expect(loadMailLinkPage(new URL(`${shop}/en/newsletter/conferma?token=x&done=1`), NewsletterToken, "newsletter.confirm")).toMatchObject({
    token: null,
    done: true,
  });
});

test("the confirmation takes the button's token only: the link's token alone or a body that is no form confirms nobody", async () => {
  const { db, confirm, status } = await subscribed("conferma@example.it");
  const url = new URL(`${shop}/newsletter/conferma?token=${confirm}`);
  const act = (token: unknown) => confirmNewsletterSubscription(db, token);

  const linkOnly = new Request(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{" });
  expect(await outcome(() => answerMailLinkPost(linkOnly, url, act))).toEqual({ status: 400, data: { error: "newsletter.errors.linkInvalid" } });
  expect(await status()).toBe("pending");

  const button = new Request(url, { method: "POST", body: new URLSearchParams({ token: confirm }) });
  expect(await outcome(() => answerMailLinkPost(button, url, act))).toEqual({ status: 302, location: "/newsletter/conferma?done=1" });
  expect(await status()).toBe("confirmed");
});

test("a mail client's one-click unsubscribe (RFC 8058) posts to the link itself: its token is enough", async () => {
  const { db, unsubscribe, status } = await subscribed("oneclick@example.it");
  const url = new URL(`${shop}/newsletter/cancellazione?token=${unsubscribe}`);
  const oneClick = new Request(url, { method: "POST", body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }) });
  const answer = await outcome(() => answerMailLinkPost(oneClick, url, (token) => unsubscribeFromNewsletter(db, token), { tokenFromLink: true }));
  expect(answer).toEqual({ status: 302, location: "/newsletter/cancellazione?done=1" });
  expect(await status()).toBe("unsubscribed");
});
