/**
 * Issuing invoices and credit notes: the only writer of `invoices` and `invoice_counters`. A number is
 * taken from its series' counter row for the calendar year (insert-or-increment, which holds the row's
 * lock until the transaction ends) in the same transaction as the document's insert: a failure rolls
 * both back, and concurrent issuers queue on the row, so numbers have no gaps and follow commit order
 * (docs/decisions/0055-invoice-numbering.md).
 */
import { and, asc, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import { italianDayOf } from "#common/shop-calendar.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import type { Db } from "#server/db/client.ts";
import { invoiceCounters, invoices, orderLines, orders } from "#server/db/schema.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { fatturaPaXml } from "./fatturapa";
import { signalSdiWork } from "./sdi-signal";
import {
  billedLinesOfOrder,
  billedLinesOfRefund,
  buyerOfOrder,
  invoiceNumberText,
  priceLines,
  transmissionCodeOf,
  type CreditNoteRefusal,
  type InvoiceDocument,
  type OrderFacts,
  type RefundedAmounts,
} from "./invoice";

export const invoiceSeries = "FT";
export const creditNoteSeries = "NC";

/** Statuses of an order whose money came in: the only ones that are invoiced. */
const invoicedStatuses = new Set(["paid", "preparing", "shipped", "ready_for_collection", "completed", "refunded"]);

export type IssuedInvoice = {
  id: string;
  kind: "invoice" | "credit_note";
  number: string;
  issuedOn: string;
  orderId: string;
  totalCents: number;
  document: InvoiceDocument;
  xml: string;
};

export type IssueInvoiceRefusal = "order-not-found" | "no-invoice-requested" | "not-paid" | "buyer-incomplete";

/** The next number of a series in a year; the row stays locked by this transaction until it ends. */
async function takeNextNumber(tx: Db, series: string, year: number): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ series, year, lastNumber: 1 })
    .onConflictDoUpdate({ target: [invoiceCounters.series, invoiceCounters.year], set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` } })
    .returning({ lastNumber: invoiceCounters.lastNumber });
  return row!.lastNumber;
}

/** What an order bills, from its row and its lines (in the order the order's pages list them). */
export function orderFactsOf(order: typeof orders.$inferSelect, lines: readonly (typeof orderLines.$inferSelect)[]): OrderFacts {
  return {
    lines: lines.map((line) => ({
      id: line.id,
      name: line.name,
      bundleName: line.bundleName,
      colour: line.colour,
      size: line.size,
      quantity: line.quantity,
      // Billed as paid: less the line's share of a discount code's saving and of the loyalty points' discount
      // (the rest, on older orders, is an "Sconto" line).
      lineTotalCents: line.lineTotalCents - line.codeDiscountCents - line.loyaltyDiscountCents,
      vatRatePercent: line.vatRatePercent,
    })),
    shippingCents: order.shippingCents,
    paymentFeeCents: order.paymentFeeCents,
    paymentMethod: order.paymentMethod,
    // Voucher lines are out of VAT's scope (art. 6-ter DPR 633/72) and never invoiced (decision 0106).
    totalCents: order.totalCents - order.voucherCents,
  };
}

async function loadOrderFacts(tx: Db, orderId: string, lock: boolean) {
  const query = tx.select().from(orders).where(eq(orders.id, orderId));
  const [order] = lock ? await query.for("update") : await query;
  if (!order) return null;
  // In the order the order's pages list them.
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.sku), asc(orderLines.id));
  return { order, lines, facts: orderFactsOf(order, lines) };
}

type InvoiceRow = typeof invoices.$inferSelect;

type DocumentContent = Omit<InvoiceDocument, "number" | "issuedOn" | "transmissionCode">;

/**
 * Numbers and stores a document in the caller's transaction: the series' next number of the year of
 * `now` in Italy, the document as issued and its XML. Nothing here is ever written again.
 */
async function issueDocument(
  tx: Db,
  args: {
    series: string;
    content: DocumentContent;
    orderId: string;
    correctsInvoiceId?: string;
    sourceKey?: string;
    actorUserId: string | null;
    now: Date;
  },
): Promise<IssuedInvoice> {
  const issuedOn = italianDayOf(args.now);
  const year = Number(issuedOn.slice(0, 4));
  const sequence = await takeNextNumber(tx, args.series, year);
  const document: InvoiceDocument = {
    ...args.content,
    number: invoiceNumberText(args.series, year, sequence),
    issuedOn,
    transmissionCode: transmissionCodeOf(args.series, year, sequence),
  };
  const [row] = await tx
    .insert(invoices)
    .values({
      kind: document.kind,
      series: args.series,
      year,
      sequence,
      number: document.number,
      orderId: args.orderId,
      correctsInvoiceId: args.correctsInvoiceId ?? null,
      sourceKey: args.sourceKey ?? null,
      issuedOn,
      totalCents: document.totalCents,
      document,
      xml: fatturaPaXml(document),
      issuedByUserId: args.actorUserId,
      createdAt: args.now,
    })
    .returning();
  // Staff's documents join the back office's activity log, in the same transaction.
  if (args.actorUserId)
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: document.kind === "invoice" ? "invoice.issue" : "creditNote.issue",
      entity: "invoice",
      entityId: document.number,
      details: { orderId: args.orderId, totalCents: document.totalCents },
    });
  signalSdiWork();
  return issuedOf(row!);
}
const issuedOf = (row: InvoiceRow): IssuedInvoice => ({
  id: row.id,
  kind: row.kind,
  number: row.number,
  issuedOn: row.issuedOn,
  orderId: row.orderId,
  totalCents: row.totalCents,
  document: row.document as InvoiceDocument,
  xml: row.xml,
});

/**
 * Issues the invoice of a paid order whose customer asked for one. Issuing it again gives the same
 * invoice: the order's row lock makes a second issuer wait and then find it.
 */
export async function issueInvoice(
  db: Db,
  args: { orderId: string; actorUserId: string | null; now: Date },
): Promise<{ ok: true; invoice: IssuedInvoice; alreadyIssued: boolean } | { ok: false; error: IssueInvoiceRefusal }> {
  return db.transaction(async (tx) => {
    const loaded = await loadOrderFacts(tx, args.orderId, true);
    if (!loaded) return { ok: false, error: "order-not-found" };
    const { order, facts } = loaded;
    const [existing] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, order.id), eq(invoices.kind, "invoice")));
    if (existing) return { ok: true, invoice: issuedOf(existing), alreadyIssued: true };
    if (order.invoiceKind === "none") return { ok: false, error: "no-invoice-requested" };
    if (!order.paidAt || !invoicedStatuses.has(order.status)) return { ok: false, error: "not-paid" };
    const buyer = buyerOfOrder(order);
    if (!buyer) return { ok: false, error: "buyer-incomplete" };
    const { fiscal } = await getSettings(tx, ["fiscal"]);
    const content: DocumentContent = {
      kind: "invoice",
      orderNumber: order.number,
      orderDate: italianDayOf(order.createdAt),
      paymentMethod: order.paymentMethod,
      seller: fiscal,
      buyer,
      ...priceLines(billedLinesOfOrder(facts)),
      corrects: null,
    };
    const invoice = await issueDocument(tx, { series: invoiceSeries, content, orderId: order.id, actorUserId: args.actorUserId, now: args.now });
    return { ok: true, invoice, alreadyIssued: false };
  });
}

/** Statuses of an order that has left the shop, or waits in it for its customer. */
const shippedStatuses = ["shipped", "ready_for_collection", "completed"] as const;
const paidStatuses = ["paid", "preparing", ...shippedStatuses] as const;

/**
 * Issues the invoices the settings say are due (settings `invoicing`): of every paid order whose customer
 * asked for one and that has none yet, on payment or once shipped or ready for collection, in the last 60
 * days. An order refused (a buyer's data incomplete) stays for the staff, on the SDI page's due list.
 */
export async function issueDueInvoices(db: Db, now: Date): Promise<{ issued: number; refused: number }> {
  const { invoicing } = await getSettings(db, ["invoicing"]);
  if (invoicing.issueAt === "manual") return { issued: 0, refused: 0 };
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .leftJoin(invoices, and(eq(invoices.orderId, orders.id), eq(invoices.kind, "invoice")))
    .where(
      and(
        sql`${orders.invoiceKind} <> 'none'`,
        gte(orders.paidAt, new Date(now.getTime() - 60 * 24 * 60 * 60_000)),
        inArray(orders.status, invoicing.issueAt === "payment" ? [...paidStatuses] : [...shippedStatuses]),
        isNull(invoices.id),
      ),
    )
    .orderBy(asc(orders.paidAt));
  const report = { issued: 0, refused: 0 };
  for (const order of due) {
    const result = await issueInvoice(db, { orderId: order.id, actorUserId: null, now });
    if (!result.ok) report.refused += 1;
    else if (!result.alreadyIssued) report.issued += 1;
  }
  return report;
}

/**
 * Issues a credit note (TD04) for a refund of an invoiced order: the refunded amounts per order line
 * (by its id) and of the delivery, never more than the invoice still holds once the
 * earlier notes are counted; or "whole", the whole order's money back, which credits every line of the
 * invoice as billed (discount and fees too) and only while no earlier note exists. `sourceKey` (a refund's
 * id) makes it idempotent: the same key gives the same note.
 */
export async function issueCreditNote(
  db: Db,
  args: { orderId: string; refund: RefundedAmounts | "whole"; sourceKey: string; actorUserId: string | null; now: Date },
): Promise<
  | { ok: true; creditNote: IssuedInvoice; alreadyIssued: boolean }
  | { ok: false; error: "order-not-found" | "not-invoiced" | "key-of-another-order" | CreditNoteRefusal }
> {
  return db.transaction(async (tx) => {
    const loaded = await loadOrderFacts(tx, args.orderId, true);
    if (!loaded) return { ok: false, error: "order-not-found" };
    const [earlier] = await tx.select().from(invoices).where(eq(invoices.sourceKey, args.sourceKey));
    if (earlier) {
      if (earlier.orderId !== args.orderId) return { ok: false, error: "key-of-another-order" };
      return { ok: true, creditNote: issuedOf(earlier), alreadyIssued: true };
    }
    const documents = await tx.select().from(invoices).where(eq(invoices.orderId, args.orderId));
    const invoiceRow = documents.find((row) => row.kind === "invoice");
    if (!invoiceRow) return { ok: false, error: "not-invoiced" };
    const invoice = invoiceRow.document as InvoiceDocument;
    const credited = documents.filter((row) => row.kind === "credit_note").reduce((sum, row) => sum + row.totalCents, 0);
    const corrects = { number: invoice.number, issuedOn: invoice.issuedOn };
    let content: InvoiceDocument;
    if (args.refund === "whole") {
      if (credited > 0) return { ok: false, error: "more-than-invoiced" };
      content = { ...invoice, kind: "credit_note", corrects };
    } else {
      const billed = billedLinesOfRefund({ ...invoice, totalCents: invoice.totalCents - credited }, loaded.facts, args.refund);
      if (!billed.ok) return billed;
      content = { ...invoice, kind: "credit_note", ...priceLines(billed.lines), corrects };
    }
    const creditNote = await issueDocument(tx, {
      series: creditNoteSeries,
      content,
      orderId: args.orderId,
      correctsInvoiceId: invoiceRow.id,
      sourceKey: args.sourceKey,
      actorUserId: args.actorUserId,
      now: args.now,
    });
    return { ok: true, creditNote, alreadyIssued: false };
  });
}

/** The invoice and credit notes of an order, oldest first. */
export async function getOrderInvoices(db: Db, orderId: string): Promise<IssuedInvoice[]> {
  const rows = await db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(asc(invoices.createdAt), asc(invoices.number));
  return rows.map(issuedOf);
}

export async function getInvoice(db: Db, id: string): Promise<IssuedInvoice | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
  return row ? issuedOf(row) : null;
}

/** Every document issued in a calendar month ("2026-11"), in number order within each series. */
export async function listInvoicesOfMonth(db: Db, month: string): Promise<IssuedInvoice[]> {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const from = `${month}-01`;
  const to = monthNumber === 12 ? `${year + 1}-01-01` : `${year}-${String(monthNumber + 1).padStart(2, "0")}-01`;
  const rows = await db
    .select()
    .from(invoices)
    .where(and(gte(invoices.issuedOn, from), lt(invoices.issuedOn, to)))
    .orderBy(asc(invoices.series), asc(invoices.sequence));
  return rows.map(issuedOf);
}

/** What an order's page lists of its invoice and credit notes. */
export type InvoiceSummary = Pick<IssuedInvoice, "id" | "kind" | "number" | "issuedOn" | "totalCents">;

export async function listOrderInvoices(db: Db, orderId: string): Promise<InvoiceSummary[]> {
  return db
    .select({ id: invoices.id, kind: invoices.kind, number: invoices.number, issuedOn: invoices.issuedOn, totalCents: invoices.totalCents })
    .from(invoices)
    .where(eq(invoices.orderId, orderId))
    .orderBy(asc(invoices.createdAt), asc(invoices.number));
}

/** A document of an order, with who placed the order (the caller decides who may see it). */
export async function findOrderInvoice(
  db: Db,
  args: { orderId: string; invoiceId: string },
): Promise<{ invoice: IssuedInvoice; orderUserId: string | null } | null> {
  const invoice = await getInvoice(db, args.invoiceId);
  if (!invoice || invoice.orderId !== args.orderId) return null;
  const [order] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, args.orderId));
  return order ? { invoice, orderUserId: order.userId } : null;
}
