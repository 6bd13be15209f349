/**
 * The back office's view of the files sent to the SDI (written by server/invoices/sdi.service.ts): each
 * document's files with the SDI's notifications, the latest status of documents, and what is still due
 * (docs/decisions/0091-sdi-intermediary.md).
 */
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { italianDayOf } from "#common/shop-calendar.ts";
import type { Db } from "#server/db/client.ts";
import { invoices, orders, sdiNotifications, sdiTransmissions } from "#server/db/schema.ts";
import type { InvoiceDocument } from "./invoice";
import { resendBy, transmitBy, type SdiError, type SdiTransmissionStatus } from "./sdi";

export type SdiNotificationView = { type: string; receivedAt: Date };
export type SdiTransmissionView = {
  id: string;
  attempt: number;
  status: SdiTransmissionStatus;
  tries: number;
  nextTryAt: Date;
  lastError: string | null;
  sdiId: string | null;
  errors: SdiError[];
  sentAt: Date | null;
  outcomeAt: Date | null;
  createdAt: Date;
  buyer: InvoiceDocument["buyer"];
  notifications: SdiNotificationView[];
};

/** Every file sent for a document, the latest first, with the SDI's notifications of each. */
export async function listInvoiceTransmissions(db: Db, invoiceId: string): Promise<SdiTransmissionView[]> {
  const rows = await db.select().from(sdiTransmissions).where(eq(sdiTransmissions.invoiceId, invoiceId)).orderBy(desc(sdiTransmissions.attempt));
  if (rows.length === 0) return [];
  const notes = await db
    .select({ transmissionId: sdiNotifications.transmissionId, type: sdiNotifications.type, receivedAt: sdiNotifications.receivedAt })
    .from(sdiNotifications)
    .where(
      inArray(
        sdiNotifications.transmissionId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(sdiNotifications.receivedAt));
  return rows.map((row) => ({
    id: row.id,
    attempt: row.attempt,
    status: row.status,
    tries: row.tries,
    nextTryAt: row.nextTryAt,
    lastError: row.lastError,
    sdiId: row.sdiId,
    errors: row.errors,
    sentAt: row.sentAt,
    outcomeAt: row.outcomeAt,
    createdAt: row.createdAt,
    buyer: (row.document as InvoiceDocument).buyer,
    notifications: notes.filter((note) => note.transmissionId === row.id).map(({ type, receivedAt }) => ({ type, receivedAt })),
  }));
}

/** The latest file's status of each document (none: never sent through the intermediary). */
export async function latestSdiStatusOf(db: Db, invoiceIds: readonly string[]): Promise<Map<string, SdiTransmissionStatus>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([sdiTransmissions.invoiceId], { invoiceId: sdiTransmissions.invoiceId, status: sdiTransmissions.status })
    .from(sdiTransmissions)
    .where(inArray(sdiTransmissions.invoiceId, [...invoiceIds]))
    .orderBy(sdiTransmissions.invoiceId, desc(sdiTransmissions.attempt));
  return new Map(rows.map((row) => [row.invoiceId, row.status]));
}

export type DueItem =
  | { kind: "to-issue"; orderId: string; orderNumber: number; paidOn: string; dueBy: string }
  | {
      kind: "to-transmit";
      invoiceId: string;
      number: string;
      documentKind: "invoice" | "credit_note";
      orderId: string;
      status: SdiTransmissionStatus | null;
      dueBy: string;
    };

/**
 * What is still due to the SDI, the nearest deadline first: paid orders whose invoice is asked and not
 * issued (12 days from the payment), and documents whose file has not reached the SDI (12 days from the
 * operation; a rejected one: 5 days from the rejection).
 */
export async function listSdiDue(db: Db, now: Date): Promise<DueItem[]> {
  const since = italianDayOf(new Date(now.getTime() - 60 * 24 * 60 * 60_000));
  const toIssue = await db
    .select({ id: orders.id, number: orders.number, paidAt: orders.paidAt })
    .from(orders)
    .leftJoin(invoices, and(eq(invoices.orderId, orders.id), eq(invoices.kind, "invoice")))
    .where(
      and(
        sql`${orders.invoiceKind} <> 'none'`,
        sql`${orders.paidAt} is not null`,
        sql`${orders.status} in ('paid', 'preparing', 'shipped', 'ready_for_collection', 'completed')`,
        isNull(invoices.id),
      ),
    );
  const documents = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      kind: invoices.kind,
      orderId: invoices.orderId,
      issuedOn: invoices.issuedOn,
      paidAt: orders.paidAt,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(sql`${invoices.issuedOn} >= ${since}`);
  const latest = await db
    .selectDistinctOn([sdiTransmissions.invoiceId], {
      invoiceId: sdiTransmissions.invoiceId,
      status: sdiTransmissions.status,
      outcomeAt: sdiTransmissions.outcomeAt,
    })
    .from(sdiTransmissions)
    .where(
      inArray(
        sdiTransmissions.invoiceId,
        documents.map((document) => document.id),
      ),
    )
    .orderBy(sdiTransmissions.invoiceId, desc(sdiTransmissions.attempt));
  const latestOf = new Map(latest.map((row) => [row.invoiceId, row]));
  const items: DueItem[] = toIssue.map((order) => {
    const paidOn = italianDayOf(order.paidAt!);
    return { kind: "to-issue", orderId: order.id, orderNumber: order.number, paidOn, dueBy: transmitBy(paidOn) };
  });
  for (const document of documents) {
    const file = latestOf.get(document.id);
    if (file && (file.status === "delivered" || file.status === "not_delivered")) continue;
    const operationDay = document.kind === "invoice" && document.paidAt ? italianDayOf(document.paidAt) : document.issuedOn;
    const dueBy = file?.status === "rejected" && file.outcomeAt ? resendBy(italianDayOf(file.outcomeAt)) : transmitBy(operationDay);
    items.push({
      kind: "to-transmit",
      invoiceId: document.id,
      number: document.number,
      documentKind: document.kind,
      orderId: document.orderId,
      status: file?.status ?? null,
      dueBy,
    });
  }
  return items.sort((a, b) => a.dueBy.localeCompare(b.dueBy));
}
