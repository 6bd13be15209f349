/**
 * A customer's objection to the reminder and review-invitation mails (docs/decisions/0102-customer-mails-consent.md):
 * made from the account or from the link in every such mail (no sign-in), taken back only from the account.
 * The only writer of customer_mail_choices.
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { customerMailChoices } from "#server/db/schema.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import { CustomerMailsToken } from "./customer-mails.inputs";
import { emailOfOptOutToken, optOutToken, type CustomerMailLinks } from "./customer-mails";

export type MailChoiceSource = "account" | "mail-link" | "one-click";

export type MailChoice = { objects: boolean; changedAt: Date | null };

const addressOf = (email: string) => email.trim().toLowerCase();

/** What the account shows: no row means she was told and has not objected (soft opt-in). */
export async function getMailChoice(db: Db, email: string): Promise<MailChoice> {
  const [row] = await db
    .select()
    .from(customerMailChoices)
    .where(eq(customerMailChoices.email, addressOf(email)));
  return row ? { objects: row.objects, changedAt: row.changedAt } : { objects: false, changedAt: null };
}

/** Records the choice with where and when it was made; the same choice again only moves nothing. */
export async function setMailChoice(db: Db, args: { email: string; objects: boolean; source: MailChoiceSource; now?: Date }) {
  const now = args.now ?? new Date();
  const values = { email: addressOf(args.email), objects: args.objects, source: args.source, changedAt: now };
  await db
    .insert(customerMailChoices)
    .values(values)
    .onConflictDoUpdate({
      target: customerMailChoices.email,
      set: { objects: values.objects, source: values.source, changedAt: values.changedAt },
      setWhere: sql`${customerMailChoices.objects} is distinct from ${values.objects}`,
    });
}

export type OptOutResult = { ok: true } | { ok: false; error: "customerMails.errors.linkInvalid" };

/** The mail's opt-out link (its page's button, or a mail client's one-click POST): objects for the link's address. */
export async function objectByMailLink(db: Db, secret: string, rawToken: unknown, source: MailChoiceSource, now = new Date()): Promise<OptOutResult> {
  const token = CustomerMailsToken.safeParse(rawToken);
  const email = token.success ? emailOfOptOutToken(secret, token.data) : null;
  if (!email) return { ok: false, error: "customerMails.errors.linkInvalid" };
  await setMailChoice(db, { email, objects: true, source, now });
  return { ok: true };
}

/** The opt-out page's absolute link for an address, in the mail's language. */
export function optOutUrl(links: CustomerMailLinks, locale: Locale, email: string): string {
  return `${links.publicUrl}${localizedHref("/promemoria/cancellazione", locale)}?token=${optOutToken(links.secret, email)}`;
}

/** The condition "this address has not objected", for the jobs' queries. */
export const hasNotObjected = (email: unknown) =>
  sql`not exists (select 1 from ${customerMailChoices} where ${customerMailChoices.email} = lower(${email}) and ${customerMailChoices.objects})`;
