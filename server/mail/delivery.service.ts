/**
 * Sends the outbox (server/mail/outbox.ts) and gives the back office its view of it.
 *
 * Mail is never lost: a failed attempt stays queued with a growing delay (1 min, 2, 4 ... at most 6 h,
 * for ever); only a 5xx refusal of the recipient marks it failed. Several app processes may run the job
 * at once: each claims due mails with `FOR UPDATE SKIP LOCKED`, so no mail is claimed twice.
 */
import { and, asc, count, desc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { pageOf } from "#server/db/paging.ts";
import { outboxEmails, outboxStatus } from "#server/db/schema.ts";
import { describeSendError, isPermanentFailure, nextAttemptAfterFailure, sendingLeaseMs } from "./delivery";
import type { Mailer } from "./mailer";

export type OutboxEmail = typeof outboxEmails.$inferSelect;
export type OutboxStatus = (typeof outboxStatus.enumValues)[number];
export const outboxStatuses = outboxStatus.enumValues;

export type DeliveryReport = {
  /** Mails found "sending" past their lease (their process died) and put back in the queue. */
  requeued: number;
  claimed: number;
  sent: number;
  /** Failed this time, queued again for later. */
  retried: number;
  /** Refused for good (5xx recipient rejection). */
  failed: number;
  /** Claimed but given back untried because the run was stopped (shutdown). */
  released: number;
};

export type DeliverOptions = {
  now?: Date;
  batchSize?: number;
  /**
   * Aborted on shutdown: no further mail of the batch is tried and the rest go back to the queue.
   * The mail being sent is let finish: cutting SMTP after DATA would risk the customer getting it twice.
   */
  signal?: AbortSignal;
};

const interruptedError = "interrupted while sending (the process stopped); queued again";

/**
 * One run of the delivery job: re-queues mails whose sender died, claims up to `batchSize` due mails
 * and sends them one by one. Without a mailer (no SMTP_URL) it changes nothing.
 */
export async function deliverDueEmails(db: Db, mailer: Mailer | null, options: DeliverOptions = {}): Promise<DeliveryReport> {
  const report: DeliveryReport = { requeued: 0, claimed: 0, sent: 0, retried: 0, failed: 0, released: 0 };
  if (!mailer) return report;
  const now = options.now ?? new Date();

  report.requeued = await requeueExpiredLeases(db, now);
  const claimed = await claimDueEmails(db, now, options.batchSize ?? 20);
  report.claimed = claimed.length;

  for (const [index, mail] of claimed.entries()) {
    if (options.signal?.aborted) {
      report.released += await releaseClaims(db, claimed.slice(index), now);
      break;
    }
    const outcome = await sendOne(db, mailer, mail, now);
    report[outcome] += 1;
  }
  return report;
}

/** A mail still "sending" after its lease: the attempt was cut short, so it counts and goes again. */
async function requeueExpiredLeases(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(outboxEmails)
    .set({ status: "queued", attempts: sql`${outboxEmails.attempts} + 1`, lastError: interruptedError, nextAttemptAt: now })
    .where(and(eq(outboxEmails.status, "sending"), lte(outboxEmails.nextAttemptAt, now)))
    .returning({ id: outboxEmails.id });
  return rows.length;
}

/**
 * Marks due mails "sending" in one statement and returns them. While "sending", `next_attempt_at`
 * holds the end of the lease. Locked rows are skipped, so concurrent runs split the queue.
 *
 * `id = any(array(subquery))`, not `id in (subquery)`: PostgreSQL may plan IN as a nested-loop semi
 * join that re-runs the LIMIT ... FOR UPDATE SKIP LOCKED subquery for every row, claiming the whole
 * queue at once (seen on PostgreSQL 15). ARRAY() is an init plan: evaluated exactly once.
 */
async function claimDueEmails(db: Db, now: Date, batchSize: number): Promise<OutboxEmail[]> {
  const due = db
    .select({ id: outboxEmails.id })
    .from(outboxEmails)
    .where(and(eq(outboxEmails.status, "queued"), lte(outboxEmails.nextAttemptAt, now)))
    .orderBy(asc(outboxEmails.id))
    .limit(batchSize)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(outboxEmails)
    .set({ status: "sending", nextAttemptAt: new Date(now.getTime() + sendingLeaseMs) })
    .where(and(sql`${outboxEmails.id} = any(array${due})`, eq(outboxEmails.status, "queued")))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/** Gives untried claims back to the queue as they were (no attempt counted). */
async function releaseClaims(db: Db, mails: OutboxEmail[], now: Date): Promise<number> {
  if (mails.length === 0) return 0;
  const rows = await db
    .update(outboxEmails)
    .set({ status: "queued", nextAttemptAt: now })
    .where(
      and(
        inArray(
          outboxEmails.id,
          mails.map((mail) => mail.id),
        ),
        eq(outboxEmails.status, "sending"),
      ),
    )
    .returning({ id: outboxEmails.id });
  return rows.length;
}

async function sendOne(db: Db, mailer: Mailer, mail: OutboxEmail, now: Date): Promise<"sent" | "retried" | "failed"> {
  // Only this claim may settle the row: if its lease ran out and another run re-queued it
  // (attempts went up), this late result must not overwrite the newer state.
  const stillOurs = and(eq(outboxEmails.id, mail.id), eq(outboxEmails.status, "sending"), eq(outboxEmails.attempts, mail.attempts));
  try {
    await mailer.send({
      to: mail.toAddress,
      subject: mail.subject,
      text: mail.textBody,
      html: mail.htmlBody,
      headers: mail.headers,
      messageKey: `outbox-${mail.id}-${mail.createdAt.getTime()}`,
    });
  } catch (error) {
    const attempts = mail.attempts + 1;
    const permanent = isPermanentFailure(error);
    await db
      .update(outboxEmails)
      .set({
        status: permanent ? "failed" : "queued",
        attempts,
        lastError: describeSendError(error),
        nextAttemptAt: permanent ? now : nextAttemptAfterFailure(now, attempts),
      })
      .where(stillOurs);
    return permanent ? "failed" : "retried";
  }
  await db
    .update(outboxEmails)
    .set({ status: "sent", attempts: mail.attempts + 1, sentAt: now })
    .where(stillOurs);
  return "sent";
}

// ---------------------------------------------------------------- back office

export type OutboxListItem = Omit<OutboxEmail, "textBody" | "htmlBody" | "headers">;
export type OutboxPage = { emails: OutboxListItem[]; total: number; page: number; pageCount: number; pageSize: number };

const listColumns = {
  id: outboxEmails.id,
  toAddress: outboxEmails.toAddress,
  subject: outboxEmails.subject,
  kind: outboxEmails.kind,
  locale: outboxEmails.locale,
  status: outboxEmails.status,
  attempts: outboxEmails.attempts,
  nextAttemptAt: outboxEmails.nextAttemptAt,
  lastError: outboxEmails.lastError,
  dedupeKey: outboxEmails.dedupeKey,
  sentAt: outboxEmails.sentAt,
  createdAt: outboxEmails.createdAt,
};

/** The outbox, newest first, optionally one status only; `page` starts at 1 and is clamped. */
export async function listOutbox(db: Db, options: { status?: OutboxStatus | null; page?: number; pageSize?: number } = {}): Promise<OutboxPage> {
  const pageSize = Math.max(1, Math.min(200, Math.trunc(options.pageSize ?? 50)));
  const where = options.status ? eq(outboxEmails.status, options.status) : undefined;
  const [totalRow] = await db.select({ n: count() }).from(outboxEmails).where(where);
  const total = totalRow?.n ?? 0;
  const { page, pageCount, offset } = pageOf(options.page, total, pageSize);
  const emails = await db.select(listColumns).from(outboxEmails).where(where).orderBy(desc(outboxEmails.id)).limit(pageSize).offset(offset);
  return { emails, total, page, pageCount, pageSize };
}

/** How many mails are in each status (for the back office's filter tabs). */
export async function countOutboxByStatus(db: Db): Promise<Record<OutboxStatus, number>> {
  const rows = await db.select({ status: outboxEmails.status, n: count() }).from(outboxEmails).groupBy(outboxEmails.status);
  const counts = Object.fromEntries(outboxStatuses.map((status) => [status, 0])) as Record<OutboxStatus, number>;
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** One mail with its bodies; null when there is no such mail. */
export async function getOutboxEmail(db: Db, id: number): Promise<OutboxEmail | null> {
  const [mail] = await db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
  return mail ?? null;
}

export type ResendEmailResult = { ok: true; id: number } | { ok: false; error: "not-found" | "mail.errors.alreadyQueued" };

/**
 * Sends a mail again. A failed one goes back to the queue as it is (due now). A sent one is copied
 * into a new queued mail, so the record of the first delivery stays. One still queued or being sent
 * is refused: it is going out anyway.
 */
export async function resendEmail(db: Db, id: number, options: { now?: Date } = {}): Promise<ResendEmailResult> {
  const now = options.now ?? new Date();
  const mail = await getOutboxEmail(db, id);
  if (!mail) return { ok: false, error: "not-found" };
  if (mail.status === "failed") {
    const [row] = await db
      .update(outboxEmails)
      .set({ status: "queued", nextAttemptAt: now })
      .where(and(eq(outboxEmails.id, id), eq(outboxEmails.status, "failed")))
      .returning({ id: outboxEmails.id });
    return row ? { ok: true, id: row.id } : { ok: false, error: "mail.errors.alreadyQueued" };
  }
  if (mail.status === "sent") {
    const [row] = await db
      .insert(outboxEmails)
      .values({
        toAddress: mail.toAddress,
        subject: mail.subject,
        textBody: mail.textBody,
        htmlBody: mail.htmlBody,
        headers: mail.headers,
        kind: mail.kind,
        locale: mail.locale,
        nextAttemptAt: now,
      })
      .returning({ id: outboxEmails.id });
    return { ok: true, id: row!.id };
  }
  return { ok: false, error: "mail.errors.alreadyQueued" };
}
