import type { Db } from "#server/db/client.ts";
import { outboxEmails } from "#server/db/schema.ts";

export type QueuedEmail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What the mail is about, e.g. "contact-message", "order-confirmation". */
  kind: string;
  locale: "it" | "en";
  /** When set, queueing the same key twice keeps one mail (idempotent callers). */
  dedupeKey?: string;
};

/**
 * Writes an e-mail to the outbox, in the caller's transaction when given one. A job sends queued
 * mail over SMTP with retries (issue 6); without SMTP it stays visible in the back office.
 */
export async function queueEmail(db: Db, email: QueuedEmail): Promise<number | null> {
  const [row] = await db
    .insert(outboxEmails)
    .values({
      toAddress: email.to,
      subject: email.subject,
      textBody: email.text,
      htmlBody: email.html ?? null,
      kind: email.kind,
      locale: email.locale,
      dedupeKey: email.dedupeKey ?? null,
    })
    .onConflictDoNothing({ target: outboxEmails.dedupeKey })
    .returning({ id: outboxEmails.id });
  return row?.id ?? null;
}
