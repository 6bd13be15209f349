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
  /** Extra headers sent as they are, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
  /** Not before this instant (a gift card's mail on the day chosen); now by default. */
  sendAt?: Date;
};

type QueuedListener = () => void;
const queuedListeners = new Set<QueuedListener>();

/**
 * Called (in this process) after each queued mail, so the delivery job can send it in a moment instead
 * of at its next poll. The caller's transaction may not have committed yet: listeners must not expect
 * the row to be visible right away. Returns the unsubscribe function.
 */
export function onEmailQueued(listener: QueuedListener): () => void {
  queuedListeners.add(listener);
  return () => queuedListeners.delete(listener);
}

/**
 * Writes an e-mail to the outbox, in the caller's transaction when given one. A job sends queued
 * mail over SMTP with retries; without SMTP it stays visible in the back office.
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
      headers: email.headers ?? null,
      ...(email.sendAt ? { nextAttemptAt: email.sendAt } : {}),
    })
    .onConflictDoNothing({ target: outboxEmails.dedupeKey })
    .returning({ id: outboxEmails.id });
  if (row) for (const listener of queuedListeners) listener();
  return row?.id ?? null;
}
