/**
 * The shop's own newsletter list: sign-up with double opt-in (the mail goes through the outbox, so it
 * is queued and retried), confirmation, one-click unsubscribe, and the back office's list and export.
 * The only writer of newsletter_subscribers.
 */
import { and, count, desc, eq, gt, sql } from "drizzle-orm";
import { localizedHref, type Locale } from "#common/locale.ts";
import { countAttempt } from "#server/accounts/login-throttle.service.ts";
import { hashEmail } from "#server/accounts/login-throttle.ts";
import { toCsv } from "#server/admin/csv.ts";
import type { Db } from "#server/db/client.ts";
import { pageOf } from "#server/db/paging.ts";
import { newsletterStatus, newsletterSubscribers } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import type { ShopIdentity } from "#server/settings/settings.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { NewsletterSignUpInput, NewsletterToken } from "./newsletter.inputs";
import {
  confirmLinkLifetimeMs,
  exportColumns,
  hashToken,
  newsletterConsentVersion,
  newsletterMailsPerAddressRule,
  newsletterSignUpRule,
  newToken,
  planSignUp,
  type NewsletterStatus,
} from "./newsletter";

export const newsletterStatuses = newsletterStatus.enumValues;

export type NewsletterSignUpResult = { ok: true } | { ok: false; error: string; throttled?: true };

type Caller = { locale: Locale; publicUrl: string; clientIp?: string; now?: Date };

/** The page where a link of the mail leads, in the language of the sign-up. */
const linkTo = (caller: Caller, path: string, token: string) => `${caller.publicUrl}${localizedHref(path, caller.locale)}?token=${token}`;

export const unsubscribeUrl = (caller: Caller, unsubscribeToken: string) => linkTo(caller, "/newsletter/cancellazione", unsubscribeToken);

/**
 * Signs an address up: it becomes pending and gets an opt-in mail with its confirmation link (valid 48
 * hours, one use) and an unsubscribe link. The answer is the same whether the address was new, pending
 * or already confirmed, so the form reveals nobody's subscription. Only bad input and too many sign-ups
 * from one client address (`newsletterSignUpRule`) are refused; an address is mailed at most once per
 * `optInMailGapMs` and `newsletterMailsPerAddressRule`, however often it is typed in.
 */
export async function signUpForNewsletter(db: Db, raw: unknown, caller: Caller): Promise<NewsletterSignUpResult> {
  const parsed = NewsletterSignUpInput.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
  const now = caller.now ?? new Date();
  if (caller.clientIp) {
    const verdict = await countAttempt(db, `newsletter:ip:${caller.clientIp}`, newsletterSignUpRule, now);
    if (!verdict.allowed) return { ok: false, error: "newsletter.errors.tooMany", throttled: true };
  }
  const { email } = parsed.data;
  const t = getTranslator(caller.locale);
  await db.transaction(async (tx) => {
    const [existing] = await tx.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).for("update");
    const plan = planSignUp(existing ?? null, now);
    if (plan === "quiet") return;
    const allowed = await countAttempt(tx, `newsletter:email:${hashEmail(email)}`, newsletterMailsPerAddressRule, now);
    if (!allowed.allowed) return;
    const token = newToken();
    const { shop } = await getSettings(tx, ["shop"]);
    const fresh = {
      locale: caller.locale,
      status: "pending" as const,
      // Word for word what the form showed beside the field.
      consentText: t("newsletter.consent", { shopName: shop.name }),
      consentVersion: newsletterConsentVersion,
      consentAt: now,
      confirmTokenHash: hashToken(token),
      confirmTokenExpiresAt: new Date(now.getTime() + confirmLinkLifetimeMs),
      lastMailAt: now,
      confirmedAt: null,
      unsubscribedAt: null,
    };
    const [row] =
      plan === "create"
        ? await tx
            .insert(newsletterSubscribers)
            .values({ email, unsubscribeToken: newToken(), ...fresh })
            .onConflictDoNothing({ target: newsletterSubscribers.email })
            .returning()
        : await tx.update(newsletterSubscribers).set(fresh).where(eq(newsletterSubscribers.id, existing!.id)).returning();
    // A concurrent first sign-up of the same address won the insert: its mail is on the way.
    if (!row) return;
    await queueOptInMail(tx, { email, token, unsubscribeToken: row.unsubscribeToken, id: row.id, consentText: row.consentText }, shop, caller, now);
  });
  return { ok: true };
}

async function queueOptInMail(
  tx: Db,
  to: { email: string; token: string; unsubscribeToken: string; id: number; consentText: string },
  shop: ShopIdentity,
  caller: Caller,
  now: Date,
) {
  const t = getTranslator(caller.locale);
  await queueEmail(tx, {
    to: to.email,
    kind: "newsletter-opt-in",
    locale: caller.locale,
    dedupeKey: `newsletter-opt-in:${to.id}:${now.getTime()}`,
    ...renderEmail({
      locale: caller.locale,
      shop,
      siteUrl: caller.publicUrl,
      subject: t("newsletter.mail.subject", { shopName: shop.name }),
      preheader: t("newsletter.mail.preheader"),
      heading: t("newsletter.mail.heading"),
      paragraphs: [t("newsletter.mail.lead", { shopName: shop.name }), t("newsletter.mail.consent", { consent: to.consentText })],
      action: { label: t("newsletter.mail.confirm"), url: linkTo(caller, "/newsletter/conferma", to.token) },
      footnote: t("newsletter.mail.notYou"),
      unsubscribe: { label: t("newsletter.mail.unsubscribe"), url: unsubscribeUrl(caller, to.unsubscribeToken) },
    }),
  });
}

export type NewsletterLinkResult = { ok: true } | { ok: false; error: "newsletter.errors.linkInvalid" };

/** The confirmation link's button: a pending address with this unexpired token is confirmed; the token then stops working. */
export async function confirmNewsletterSubscription(db: Db, rawToken: unknown, now = new Date()): Promise<NewsletterLinkResult> {
  const token = NewsletterToken.safeParse(rawToken);
  if (!token.success) return { ok: false, error: "newsletter.errors.linkInvalid" };
  const rows = await db
    .update(newsletterSubscribers)
    .set({ status: "confirmed", confirmedAt: now, confirmTokenHash: null, confirmTokenExpiresAt: null })
    .where(
      and(
        eq(newsletterSubscribers.confirmTokenHash, hashToken(token.data)),
        eq(newsletterSubscribers.status, "pending"),
        gt(newsletterSubscribers.confirmTokenExpiresAt, now),
      ),
    )
    .returning({ id: newsletterSubscribers.id });
  return rows.length ? { ok: true } : { ok: false, error: "newsletter.errors.linkInvalid" };
}

/**
 * The unsubscribe link (the page's button, or a mail client's one-click POST): no login, no question.
 * Unsubscribing twice is still a success; a pending confirmation link stops working.
 */
export async function unsubscribeFromNewsletter(db: Db, rawToken: unknown, now = new Date()): Promise<NewsletterLinkResult> {
  const token = NewsletterToken.safeParse(rawToken);
  if (!token.success) return { ok: false, error: "newsletter.errors.linkInvalid" };
  const [row] = await db
    .select({ id: newsletterSubscribers.id, status: newsletterSubscribers.status })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.unsubscribeToken, token.data));
  if (!row) return { ok: false, error: "newsletter.errors.linkInvalid" };
  if (row.status !== "unsubscribed") {
    await db
      .update(newsletterSubscribers)
      .set({ status: "unsubscribed", unsubscribedAt: now, confirmTokenHash: null, confirmTokenExpiresAt: null })
      .where(eq(newsletterSubscribers.id, row.id));
  }
  return { ok: true };
}

// ---------------------------------------------------------------- back office

export type NewsletterSubscriberRow = Pick<
  typeof newsletterSubscribers.$inferSelect,
  "id" | "email" | "locale" | "status" | "consentVersion" | "consentAt" | "confirmedAt" | "unsubscribedAt"
>;

export async function listNewsletterSubscribers(db: Db, options: { status: NewsletterStatus | null; page?: number; pageSize?: number }) {
  const pageSize = options.pageSize ?? 50;
  const where = options.status ? eq(newsletterSubscribers.status, options.status) : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(newsletterSubscribers).where(where);
  const { page, pageCount, offset } = pageOf(options.page, total, pageSize);
  const subscribers: NewsletterSubscriberRow[] = await db
    .select({
      id: newsletterSubscribers.id,
      email: newsletterSubscribers.email,
      locale: newsletterSubscribers.locale,
      status: newsletterSubscribers.status,
      consentVersion: newsletterSubscribers.consentVersion,
      consentAt: newsletterSubscribers.consentAt,
      confirmedAt: newsletterSubscribers.confirmedAt,
      unsubscribedAt: newsletterSubscribers.unsubscribedAt,
    })
    .from(newsletterSubscribers)
    .where(where)
    .orderBy(desc(newsletterSubscribers.createdAt), desc(newsletterSubscribers.id))
    .limit(pageSize)
    .offset(offset);
  return { subscribers, total, page, pageCount };
}

/** How many addresses are in each status (the back office's tabs). */
export async function countNewsletterSubscribers(db: Db): Promise<Record<NewsletterStatus, number>> {
  const rows = await db
    .select({ status: newsletterSubscribers.status, n: count() })
    .from(newsletterSubscribers)
    .groupBy(newsletterSubscribers.status);
  const counts = Object.fromEntries(newsletterStatuses.map((status) => [status, 0])) as Record<NewsletterStatus, number>;
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/**
 * The confirmed addresses as CSV for any mailing tool: comma-separated (what mailing tools import),
 * UTF-8 with a byte order mark so Excel reads accented letters right, times in ISO 8601 UTC.
 */
export async function exportNewsletterSubscribersCsv(db: Db): Promise<string> {
  const rows = await db
    .select()
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.status, "confirmed"))
    .orderBy(sql`${newsletterSubscribers.confirmedAt} asc nulls last`, newsletterSubscribers.id);
  const lines = rows.map((row) => [row.email, row.locale, row.confirmedAt?.toISOString() ?? "", row.consentVersion, row.consentAt.toISOString()]);
  return `\uFEFF${toCsv(exportColumns, lines)}`;
}
