import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { newsletterSubscribers, outboxEmails } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";
import { newsletterConsentVersion } from "./newsletter";
import {
  confirmNewsletterSubscription,
  countNewsletterSubscribers,
  exportNewsletterSubscribersCsv,
  listNewsletterSubscribers,
  signUpForNewsletter,
  unsubscribeFromNewsletter,
} from "./newsletter.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const publicUrl = "https://www.bimbifelici.example";
const at = (iso: string) => new Date(iso);
const minutes = (start: Date, n: number) => new Date(start.getTime() + n * 60_000);

async function mailsTo(db: Db, address: string) {
  return db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, address)).orderBy(outboxEmails.id);
}

/** The token of a link of the mail, as a person would follow it. */
function tokenOf(mail: { textBody: string }, page: "conferma" | "cancellazione"): string {
  return new RegExp(`/newsletter/${page}\\?token=([A-Za-z0-9_-]+)`).exec(mail.textBody)![1]!;
}

async function subscriber(db: Db, email: string) {
  const [row] = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
  return row;
}

test("a sign-up from the English page is pending with its consent, and the English opt-in mail's link confirms it once", async () => {
  const db = await openDb();
  const now = at("2026-11-20T18:00:00Z");
  const result = await signUpForNewsletter(db, { email: "  Giulia.Russo@Example.com " }, { locale: "en", publicUrl, clientIp: "203.0.113.5", now });
  expect(result).toEqual({ ok: true });

  const stored = await subscriber(db, "giulia.russo@example.com");
  expect(stored).toMatchObject({ status: "pending", locale: "en", consentVersion: newsletterConsentVersion, consentAt: now, confirmedAt: null });
  expect(stored!.consentText).toBe(messagesEn.newsletter.consent.replace("{{shopName}}", "Bimbi Felici"));

  const [mail] = await mailsTo(db, "giulia.russo@example.com");
  expect(mail).toMatchObject({
    kind: "newsletter-opt-in",
    locale: "en",
    status: "queued",
    subject: "Confirm your sign-up to the Bimbi Felici newsletter",
  });
  expect(mail!.textBody).toContain(`${publicUrl}/en/newsletter/conferma?token=`);
  expect(mail!.textBody).toContain(stored!.consentText);
  const unsubscribeLink = `${publicUrl}/en/newsletter/cancellazione?token=${stored!.unsubscribeToken}`;
  expect(mail!.textBody).toContain(`Unsubscribe from the newsletter: ${unsubscribeLink}`);
  expect(mail!.htmlBody).toContain(`href="${unsubscribeLink}"`);
  expect(mail!.headers).toEqual({ "List-Unsubscribe": `<${unsubscribeLink}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });

  const token = tokenOf(mail!, "conferma");
  expect(await confirmNewsletterSubscription(db, token, minutes(now, 30))).toEqual({ ok: true });
  expect(await subscriber(db, "giulia.russo@example.com")).toMatchObject({
    status: "confirmed",
    confirmedAt: minutes(now, 30),
    confirmTokenHash: null,
  });
  // One use: the same link again changes nothing.
  expect(await confirmNewsletterSubscription(db, token, minutes(now, 31))).toEqual({ ok: false, error: "newsletter.errors.linkInvalid" });
});

test("the Italian page's sign-up gets the Italian mail", async () => {
  const db = await openDb();
  await signUpForNewsletter(db, { email: "anna@example.it" }, { locale: "it", publicUrl });
  const [mail] = await mailsTo(db, "anna@example.it");
  expect(mail!.subject).toBe("Conferma la tua iscrizione alla newsletter di Bimbi Felici");
  expect(mail!.textBody).toContain(`${publicUrl}/newsletter/conferma?token=`);
  expect(mail!.textBody).toContain(`${messagesIt.newsletter.mail.unsubscribe}: ${publicUrl}/newsletter/cancellazione?token=`);
});

test("a confirmation link past its 48 hours confirms nothing; a new sign-up sends a fresh one that works", async () => {
  const db = await openDb();
  const now = at("2026-11-20T18:00:00Z");
  await signUpForNewsletter(db, { email: "late@example.it" }, { locale: "it", publicUrl, now });
  const [first] = await mailsTo(db, "late@example.it");
  const later = minutes(now, 48 * 60 + 1);
  expect(await confirmNewsletterSubscription(db, tokenOf(first!, "conferma"), later)).toEqual({ ok: false, error: "newsletter.errors.linkInvalid" });
  expect((await subscriber(db, "late@example.it"))!.status).toBe("pending");

  await signUpForNewsletter(db, { email: "late@example.it" }, { locale: "it", publicUrl, now: later });
  const [, second] = await mailsTo(db, "late@example.it");
  expect(await confirmNewsletterSubscription(db, tokenOf(second!, "conferma"), minutes(later, 5))).toEqual({ ok: true });
});

test("signing up again: one mail per 10 minutes for a pending address, none for a confirmed one, the same answer every time", async () => {
  const db = await openDb();
  const now = at("2026-11-20T18:00:00Z");
  const signUp = (email: string, when: Date) => signUpForNewsletter(db, { email }, { locale: "it", publicUrl, now: when });

  for (const offset of [0, 1, 5, 9]) expect(await signUp("twice@example.it", minutes(now, offset))).toEqual({ ok: true });
  expect(await mailsTo(db, "twice@example.it")).toHaveLength(1);
  await signUp("TWICE@example.it", minutes(now, 11));
  const mails = await mailsTo(db, "twice@example.it");
  expect(mails).toHaveLength(2);
  expect(await db.select().from(newsletterSubscribers)).toHaveLength(1);
  // The newest link is the one that confirms.
  expect(await confirmNewsletterSubscription(db, tokenOf(mails[0]!, "conferma"), minutes(now, 12))).toEqual({
    ok: false,
    error: "newsletter.errors.linkInvalid",
  });
  expect(await confirmNewsletterSubscription(db, tokenOf(mails[1]!, "conferma"), minutes(now, 12))).toEqual({ ok: true });

  expect(await signUp("twice@example.it", minutes(now, 60))).toEqual({ ok: true });
  expect(await mailsTo(db, "twice@example.it")).toHaveLength(2);
  expect((await subscriber(db, "twice@example.it"))!.status).toBe("confirmed");
});

test("an address gets at most 4 opt-in mails a day, however many sign-ups name it", async () => {
  const db = await openDb();
  const now = at("2026-11-20T08:00:00Z");
  for (let i = 0; i < 8; i++)
    await signUpForNewsletter(
      db,
      { email: "bombed@example.it" },
      { locale: "it", publicUrl, clientIp: `198.51.100.${i}`, now: minutes(now, i * 11) },
    );
  expect(await mailsTo(db, "bombed@example.it")).toHaveLength(4);
  await signUpForNewsletter(db, { email: "bombed@example.it" }, { locale: "it", publicUrl, now: minutes(now, 24 * 60 + 30) });
  expect(await mailsTo(db, "bombed@example.it")).toHaveLength(5);
});

test("past 10 sign-ups in an hour from one client address the 11th is refused and nothing is stored", async () => {
  const db = await openDb();
  const now = at("2026-11-20T18:00:00Z");
  const from = (clientIp: string, i: number) =>
    signUpForNewsletter(db, { email: `script${i}@example.it` }, { locale: "it", publicUrl, clientIp, now: minutes(now, i) });
  for (let i = 0; i < 10; i++) expect(await from("192.0.2.7", i)).toEqual({ ok: true });
  expect(await from("192.0.2.7", 10)).toEqual({ ok: false, error: "newsletter.errors.tooMany", throttled: true });
  expect(await subscriber(db, "script10@example.it")).toBeUndefined();
  expect(await from("192.0.2.8", 11)).toEqual({ ok: true });
});

test("bad addresses are refused with their message and store nothing", async () => {
  const db = await openDb();
  const cases: [unknown, string][] = [
    [{}, "newsletter.errors.emailRequired"],
    [{ email: "   " }, "newsletter.errors.emailRequired"],
    [{ email: "maria@" }, "newsletter.errors.emailInvalid"],
    [{ email: `${"a".repeat(250)}@example.it` }, "newsletter.errors.emailInvalid"],
    [{ email: "maria@example.it\r\nBcc: x@example.com" }, "newsletter.errors.emailInvalid"],
    [{ email: ["a@example.it", "b@example.it"] }, "newsletter.errors.emailRequired"],
  ];
  for (const [input, error] of cases) expect(await signUpForNewsletter(db, input, { locale: "it", publicUrl })).toEqual({ ok: false, error });
  expect(await db.select().from(newsletterSubscribers)).toHaveLength(0);
  expect(await db.select().from(outboxEmails)).toHaveLength(0);
});

test("the unsubscribe link works without login, twice is still done, and a pending confirmation link then stops working", async () => {
  const db = await openDb();
  const now = at("2026-11-20T18:00:00Z");
  await signUpForNewsletter(db, { email: "bye@example.it" }, { locale: "it", publicUrl, now });
  const [mail] = await mailsTo(db, "bye@example.it");
  await confirmNewsletterSubscription(db, tokenOf(mail!, "conferma"), now);
  const unsubscribe = tokenOf(mail!, "cancellazione");

  expect(await unsubscribeFromNewsletter(db, unsubscribe, minutes(now, 60))).toEqual({ ok: true });
  expect(await subscriber(db, "bye@example.it")).toMatchObject({ status: "unsubscribed", unsubscribedAt: minutes(now, 60) });
  expect(await unsubscribeFromNewsletter(db, unsubscribe, minutes(now, 61))).toEqual({ ok: true });
  expect((await subscriber(db, "bye@example.it"))!.unsubscribedAt).toEqual(minutes(now, 60));
  for (const bad of ["", "x".repeat(43), "../../etc", null, 42]) {
    expect(await unsubscribeFromNewsletter(db, bad)).toEqual({ ok: false, error: "newsletter.errors.linkInvalid" });
  }

  // Signing up again starts over: pending, a new mail; unsubscribing before confirming kills its link.
  await signUpForNewsletter(db, { email: "bye@example.it" }, { locale: "en", publicUrl, now: minutes(now, 120) });
  const [, again] = await mailsTo(db, "bye@example.it");
  expect(await subscriber(db, "bye@example.it")).toMatchObject({ status: "pending", locale: "en", unsubscribedAt: null });
  expect(tokenOf(again!, "cancellazione")).toBe(unsubscribe);
  await unsubscribeFromNewsletter(db, unsubscribe, minutes(now, 121));
  expect(await confirmNewsletterSubscription(db, tokenOf(again!, "conferma"), minutes(now, 122))).toEqual({
    ok: false,
    error: "newsletter.errors.linkInvalid",
  });
});

test("the back office counts each status, and the export holds the confirmed addresses only, for any mailing tool", async () => {
  const db = await openDb();
  const now = at("2026-11-20T18:00:00Z");
  for (const [email, locale] of [
    ["uno@example.it", "it"],
    ["two@example.com", "en"],
    ["tre@example.it", "it"],
    ["quattro@example.it", "it"],
  ] as const) {
    await signUpForNewsletter(db, { email }, { locale, publicUrl, now });
  }
  const link = async (email: string, page: "conferma" | "cancellazione") => tokenOf((await mailsTo(db, email))[0]!, page);
  await confirmNewsletterSubscription(db, await link("uno@example.it", "conferma"), minutes(now, 10));
  await confirmNewsletterSubscription(db, await link("two@example.com", "conferma"), minutes(now, 20));
  await confirmNewsletterSubscription(db, await link("tre@example.it", "conferma"), minutes(now, 30));
  await unsubscribeFromNewsletter(db, await link("tre@example.it", "cancellazione"), minutes(now, 40));

  expect(await countNewsletterSubscribers(db)).toEqual({ pending: 1, confirmed: 2, unsubscribed: 1 });
  const pending = await listNewsletterSubscribers(db, { status: "pending" });
  expect(pending.subscribers.map((row) => row.email)).toEqual(["quattro@example.it"]);
  expect((await listNewsletterSubscribers(db, { status: null })).total).toBe(4);

  const csv = await exportNewsletterSubscribersCsv(db);
  expect(csv.startsWith("\uFEFF")).toBe(true);
  expect(csv.slice(1).split("\r\n")).toEqual([
    "email,language,confirmed_at,consent_version,consent_at",
    `uno@example.it,it,2026-11-20T18:10:00.000Z,${newsletterConsentVersion},2026-11-20T18:00:00.000Z`,
    `two@example.com,en,2026-11-20T18:20:00.000Z,${newsletterConsentVersion},2026-11-20T18:00:00.000Z`,
    "",
  ]);
});
