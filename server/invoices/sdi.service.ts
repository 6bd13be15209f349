/**
 * Invoices and credit notes on their way to the SDI through the intermediary: the only writer of
 * `sdi_transmissions` and `sdi_notifications` (docs/decisions/0091-sdi-intermediary.md).
 *
 * Each issued document gets a file queued; the job hands queued files to the intermediary (retried with
 * a growing delay, like mail; claimed with SKIP LOCKED so that processes never send one twice); the SDI's
 * answers arrive as callbacks and settle the file. A rejected file is corrected by the staff and a new
 * file of the same invoice (same number and date) is queued, within the 5 days the rules allow. A file
 * sent and still unanswered after a while is asked about: a lost callback does not leave it "sent" forever.
 */
import { and, asc, desc, eq, gte, inArray, isNull, lte, sql } from "drizzle-orm";
import { italianDayOf } from "#common/shop-calendar.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import type { Db } from "#server/db/client.ts";
import { invoices, sdiNotifications, sdiTransmissions } from "#server/db/schema.ts";
import { describeSendError, nextAttemptAfterFailure } from "#server/mail/delivery.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import type { Env } from "#server/env.ts";
import { acubePublicKeyOf, SdiSendError, verifyAcubeCallback, type SdiSender } from "./acube";
import { fatturaPaXml } from "./fatturapa";
import { signalSdiWork } from "./sdi-signal";
import type { InvoiceDocument } from "./invoice";
import { mayResend, outcomeOfNotification, transmitWithinDays, type SdiError } from "./sdi";
import { SdiNotificationPayload, type CompanyBuyerCorrection, type PrivateBuyerCorrection } from "./sdi.inputs";

/** A process holds a claimed file this long; past it, another run puts it back in the queue. */
export const sdiSendingLeaseMs = 10 * 60_000;
/**
 * A sent file unanswered this long is asked about at the intermediary, and again after as long while it stays
 * unanswered (the SDI answers in minutes to hours, at most five days). For a sent file `next_try_at` is that time.
 */
export const sdiSilenceMs = 6 * 60 * 60_000;

type TransmissionRow = typeof sdiTransmissions.$inferSelect;

/**
 * Queues the first file of every document issued in the last 12 days that has none: documents issued
 * before the intermediary was configured and still inside the legal window go too.
 */
export async function queueUnsentDocuments(db: Db, now: Date): Promise<number> {
  const from = italianDayOf(new Date(now.getTime() - transmitWithinDays * 24 * 60 * 60_000));
  const unsent = await db
    .select({ invoiceId: invoices.id, document: invoices.document, xml: invoices.xml })
    .from(invoices)
    .leftJoin(sdiTransmissions, eq(sdiTransmissions.invoiceId, invoices.id))
    .where(and(gte(invoices.issuedOn, from), isNull(sdiTransmissions.id)))
    .orderBy(asc(invoices.createdAt));
  if (unsent.length === 0) return 0;
  // Two processes queueing at once: the unique (invoice, attempt) keeps one file each.
  const rows = await db
    .insert(sdiTransmissions)
    .values(unsent.map((row) => ({ ...row, attempt: 1, nextTryAt: now })))
    .onConflictDoNothing()
    .returning({ id: sdiTransmissions.id });
  return rows.length;
}

export type SdiSendReport = { requeued: number; claimed: number; sent: number; retried: number; refused: number; released: number };

/** One run of the sending job: files whose sender died go back to the queue, due files are claimed and sent. */
export async function sendDueTransmissions(
  db: Db,
  sender: SdiSender,
  options: { now?: Date; batchSize?: number; signal?: AbortSignal } = {},
): Promise<SdiSendReport> {
  const now = options.now ?? new Date();
  const report: SdiSendReport = { requeued: 0, claimed: 0, sent: 0, retried: 0, refused: 0, released: 0 };
  const expired = await db
    .update(sdiTransmissions)
    .set({ status: "queued", tries: sql`${sdiTransmissions.tries} + 1`, lastError: "interrupted while sending; queued again", nextTryAt: now })
    .where(and(eq(sdiTransmissions.status, "sending"), lte(sdiTransmissions.nextTryAt, now)))
    .returning({ id: sdiTransmissions.id });
  report.requeued = expired.length;
  const due = db
    .select({ id: sdiTransmissions.id })
    .from(sdiTransmissions)
    .where(and(eq(sdiTransmissions.status, "queued"), lte(sdiTransmissions.nextTryAt, now)))
    .orderBy(asc(sdiTransmissions.createdAt))
    .limit(options.batchSize ?? 20)
    .for("update", { skipLocked: true });
  // = any(array(...)): evaluated once (see server/mail/delivery.service.ts on IN and SKIP LOCKED).
  const claimed = await db
    .update(sdiTransmissions)
    .set({ status: "sending", nextTryAt: new Date(now.getTime() + sdiSendingLeaseMs) })
    .where(and(sql`${sdiTransmissions.id} = any(array${due})`, eq(sdiTransmissions.status, "queued")))
    .returning();
  report.claimed = claimed.length;
  for (const [index, transmission] of claimed.entries()) {
    if (options.signal?.aborted) {
      const rest = claimed.slice(index).map((row) => row.id);
      const released = await db
        .update(sdiTransmissions)
        .set({ status: "queued", nextTryAt: now })
        .where(and(inArray(sdiTransmissions.id, rest), eq(sdiTransmissions.status, "sending")))
        .returning({ id: sdiTransmissions.id });
      report.released = released.length;
      break;
    }
    report[await sendOne(db, sender, transmission, now)] += 1;
  }
  return report;
}

async function sendOne(db: Db, sender: SdiSender, transmission: TransmissionRow, now: Date): Promise<"sent" | "retried" | "refused"> {
  const stillOurs = and(
    eq(sdiTransmissions.id, transmission.id),
    eq(sdiTransmissions.status, "sending"),
    eq(sdiTransmissions.tries, transmission.tries),
  );
  const tries = transmission.tries + 1;
  try {
    const { providerId } = await sender.send(transmission.xml);
    await db
      .update(sdiTransmissions)
      .set({ status: "sent", tries, providerId, sentAt: now, lastError: null, nextTryAt: new Date(now.getTime() + sdiSilenceMs) })
      .where(stillOurs);
    return "sent";
  } catch (error) {
    const permanent = error instanceof SdiSendError && error.permanent;
    const message = describeSendError(error);
    await db
      .update(sdiTransmissions)
      .set(
        permanent
          ? { status: "refused", tries, lastError: message, outcomeAt: now, errors: [{ code: "", description: message }] }
          : { status: "queued", tries, lastError: message, nextTryAt: nextAttemptAfterFailure(now, tries) },
      )
      .where(stillOurs);
    return permanent ? "refused" : "retried";
  }
}

export type SdiPollReport = { asked: number; applied: number; failed: number };

/**
 * Sent files whose callback has not come within `sdiSilenceMs`: their notifications are read from the
 * intermediary and recorded as a callback would have (the same notification twice changes nothing).
 */
export async function pollSilentTransmissions(
  db: Db,
  sender: SdiSender,
  options: { now?: Date; batchSize?: number; signal?: AbortSignal } = {},
): Promise<SdiPollReport> {
  const now = options.now ?? new Date();
  const report: SdiPollReport = { asked: 0, applied: 0, failed: 0 };
  const silent = await db
    .select({ id: sdiTransmissions.id, providerId: sdiTransmissions.providerId })
    .from(sdiTransmissions)
    .where(and(eq(sdiTransmissions.status, "sent"), lte(sdiTransmissions.nextTryAt, now)))
    .orderBy(asc(sdiTransmissions.nextTryAt))
    .limit(options.batchSize ?? 20);
  for (const transmission of silent) {
    if (options.signal?.aborted) break;
    // Asked again later whatever the answer; another process asking meanwhile records nothing twice.
    await db
      .update(sdiTransmissions)
      .set({ nextTryAt: new Date(now.getTime() + sdiSilenceMs) })
      .where(and(eq(sdiTransmissions.id, transmission.id), eq(sdiTransmissions.status, "sent")));
    if (!transmission.providerId) continue;
    report.asked += 1;
    let notifications: unknown[];
    try {
      notifications = await sender.notificationsOf(transmission.providerId);
    } catch {
      report.failed += 1;
      continue;
    }
    for (const notification of notifications) {
      const payload = SdiNotificationPayload.safeParse({ notification });
      if (!payload.success || payload.data.notification.invoice_uuid !== transmission.providerId) continue;
      const result = await applySdiNotification(db, payload.data, now);
      if (result.ok && result.outcome === "applied") report.applied += 1;
    }
  }
  return report;
}

export type ApplyNotificationResult = { ok: true; outcome: "applied" | "duplicate" | "kept" } | { ok: false; error: "unknown-file" };

/**
 * Records one notification of the SDI for a file the intermediary has; RC, MC and NS settle a file still
 * awaiting its answer. The same notification again (the intermediary retries) changes nothing.
 */
export async function applySdiNotification(db: Db, payload: SdiNotificationPayload, now: Date): Promise<ApplyNotificationResult> {
  const { notification } = payload;
  return db.transaction(async (tx) => {
    const [transmission] = await tx.select().from(sdiTransmissions).where(eq(sdiTransmissions.providerId, notification.invoice_uuid)).for("update");
    if (!transmission) return { ok: false, error: "unknown-file" };
    const inserted = await tx
      .insert(sdiNotifications)
      .values({ providerId: notification.uuid, transmissionId: transmission.id, type: notification.type, payload, receivedAt: now })
      .onConflictDoNothing()
      .returning({ id: sdiNotifications.id });
    if (inserted.length === 0) return { ok: true, outcome: "duplicate" };
    const outcome = outcomeOfNotification(notification.type);
    if (!outcome || transmission.status !== "sent") return { ok: true, outcome: "kept" };
    const errors: SdiError[] = outcome === "rejected" ? (notification.message?.lista_errori ?? []) : [];
    await tx
      .update(sdiTransmissions)
      .set({ status: outcome, outcomeAt: now, errors, sdiId: notification.message?.identificativo_sdi ?? transmission.sdiId })
      .where(eq(sdiTransmissions.id, transmission.id));
    return { ok: true, outcome: "applied" };
  });
}

export type CallbackRefusal = "not-configured" | "invalid-signature" | "invalid-payload" | "unknown-file";

/**
 * A callback of the intermediary as it arrived: its signature checked against the shop's public address
 * of the callback (`targetUri`), its body parsed, then the notification recorded.
 */
export async function receiveSdiCallback(
  db: Db,
  env: Pick<Env, "ACUBE_WEBHOOK_PUBLIC_KEY">,
  args: { method: string; targetUri: string; headers: Headers; body: string; now: Date },
): Promise<{ ok: true; outcome: "applied" | "duplicate" | "kept" } | { ok: false; error: CallbackRefusal }> {
  if (!env.ACUBE_WEBHOOK_PUBLIC_KEY) return { ok: false, error: "not-configured" };
  const publicKey = acubePublicKeyOf(env.ACUBE_WEBHOOK_PUBLIC_KEY);
  if (!verifyAcubeCallback({ publicKey, ...args })) return { ok: false, error: "invalid-signature" };
  let json: unknown;
  try {
    json = JSON.parse(args.body);
  } catch {
    return { ok: false, error: "invalid-payload" };
  }
  const payload = SdiNotificationPayload.safeParse(json);
  if (!payload.success) return { ok: false, error: "invalid-payload" };
  return applySdiNotification(db, payload.data, args.now);
}

export type BuyerCorrection = ({ kind: "company" } & CompanyBuyerCorrection) | ({ kind: "private" } & PrivateBuyerCorrection);
export type ResendRefusal = "not-found" | "not-rejected" | "too-late" | "wrong-buyer-kind";

/**
 * Queues a corrected file of a rejected invoice: the buyer's tax identity as the staff corrected it and
 * the seller's data as the settings now hold them; number, date, lines and amounts as issued.
 */
export async function resendCorrectedInvoice(
  db: Db,
  args: { invoiceId: string; correction: BuyerCorrection; actorUserId: string; now: Date },
): Promise<{ ok: true; attempt: number } | { ok: false; error: ResendRefusal }> {
  return db.transaction(async (tx) => {
    const [invoice] = await tx.select({ id: invoices.id, number: invoices.number }).from(invoices).where(eq(invoices.id, args.invoiceId));
    if (!invoice) return { ok: false, error: "not-found" };
    const [latest] = await tx
      .select()
      .from(sdiTransmissions)
      .where(eq(sdiTransmissions.invoiceId, invoice.id))
      .orderBy(desc(sdiTransmissions.attempt))
      .limit(1)
      .for("update");
    if (!latest || (latest.status !== "rejected" && latest.status !== "refused")) return { ok: false, error: "not-rejected" };
    if (!mayResend(latest.status, latest.outcomeAt ? italianDayOf(latest.outcomeAt) : null, italianDayOf(args.now)))
      return { ok: false, error: "too-late" };
    const previous = latest.document as InvoiceDocument;
    if (previous.buyer.kind !== args.correction.kind) return { ok: false, error: "wrong-buyer-kind" };
    const { fiscal } = await getSettings(tx, ["fiscal"]);
    const buyer: InvoiceDocument["buyer"] =
      previous.buyer.kind === "company" && args.correction.kind === "company"
        ? {
            ...previous.buyer,
            vatNumber: args.correction.vatNumber,
            sdiCode: args.correction.sdiCode || null,
            pec: args.correction.sdiCode ? null : args.correction.pec || null,
          }
        : previous.buyer.kind === "private" && args.correction.kind === "private"
          ? { ...previous.buyer, fiscalCode: args.correction.fiscalCode }
          : previous.buyer;
    const document: InvoiceDocument = { ...previous, seller: fiscal, buyer };
    const attempt = latest.attempt + 1;
    await tx.insert(sdiTransmissions).values({
      invoiceId: invoice.id,
      attempt,
      document,
      xml: fatturaPaXml(document),
      nextTryAt: args.now,
      createdByUserId: args.actorUserId,
      createdAt: args.now,
    });
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "invoice.resend",
      entity: "invoice",
      entityId: invoice.number,
      details: { attempt, rejectedErrors: latest.errors.map((error) => error.code) },
    });
    signalSdiWork();
    return { ok: true, attempt };
  });
}
