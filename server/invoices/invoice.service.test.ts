import { asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { auditLog, invoiceCounters, invoices, orderLines, orders } from "#server/db/schema.ts";
import { markOrderPaid } from "#server/orders/order.service.ts";
import { createTestDb, describeOnPostgres, selectRows } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder } from "#tests/fixtures/checkout.fixtures.ts";
import { sql } from "drizzle-orm";
import { fatturaPaFileName } from "./fatturapa";
import { getOrderInvoices, issueCreditNote, issueInvoice, listInvoicesOfMonth } from "./invoice.service";

const november = new Date("2026-11-26T10:00:00Z");
const privateInvoice = { invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" };

async function openDb(poolSize?: number) {
  const handle = await createTestDb({ poolSize });
  onTestFinished(() => handle.close());
  return handle.db;
}

/** A card order of a stroller (22%) and two tins of formula (4%), paid when `paid`, for a buyer asking `fields`. */
async function anOrder(db: Db, fields: Record<string, string> = privateInvoice, options: { paid?: boolean } = {}) {
  const stroller = await createProduct(db, { nameIt: "Passeggino Trio", priceCents: 24_990, vatRatePercent: 22 });
  const formula = await createProduct(db, { nameIt: "Latte in polvere", priceCents: 1_799, vatRatePercent: 4 });
  const cartId = await cartWith(db, [
    { variantId: stroller.variantId, quantity: 1 },
    { variantId: formula.variantId, quantity: 2 },
  ]);
  const placed = await placeTestOrder(db, { cartId, input: checkoutInput(fields), now: november });
  if (!placed.ok) throw new Error(placed.error);
  if (options.paid ?? true) {
    const [order] = await db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, placed.orderId));
    await markOrderPaid(db, { orderId: placed.orderId, provider: "test", providerRef: null, amountCents: order!.totalCents, now: november });
  }
  return placed.orderId;
}

test("a paid order whose customer asked for a private invoice gets number 1 of the year, with the codice fiscale in its file", async () => {
  const db = await openDb();
  const orderId = await anOrder(db);
  const issued = await issueInvoice(db, { orderId, actorUserId: null, now: november });
  expect(issued.ok && issued.alreadyIssued).toBe(false);
  if (!issued.ok) return;
  expect(issued.invoice).toMatchObject({ kind: "invoice", number: "2026/0001", issuedOn: "2026-11-26" });
  // 249.90 + 2 × 17.99 + delivery 6.90: the document adds up to what the customer paid.
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  expect(issued.invoice.totalCents).toBe(order!.totalCents);
  expect(issued.invoice.document.vatSummary.map((row) => row.vatRatePercent)).toEqual([22, 4]);
  expect(issued.invoice.xml).toContain("<CodiceFiscale>RSSMRA85T10A562S</CodiceFiscale>");
  expect(issued.invoice.xml).toContain("<CodiceDestinatario>0000000</CodiceDestinatario>");
  expect(issued.invoice.xml).toContain("<Numero>2026/0001</Numero>");

  const again = await issueInvoice(db, { orderId, actorUserId: null, now: november });
  expect(again.ok && again.alreadyIssued && again.invoice.id).toBe(issued.invoice.id);
  const next = await issueInvoice(db, { orderId: await anOrder(db), actorUserId: null, now: november });
  expect(next.ok && next.invoice.number).toBe("2026/0002");
  const newYear = await issueInvoice(db, { orderId: await anOrder(db), actorUserId: null, now: new Date("2027-01-01T08:00:00Z") });
  expect(newYear.ok && newYear.invoice.number).toBe("2027/0001");
  expect((await listInvoicesOfMonth(db, "2026-11")).map((invoice) => invoice.number)).toEqual(["2026/0001", "2026/0002"]);
});

test("the year and the day of an invoice are Italy's: 23:30 UTC on 31 December is already the new year", async () => {
  const db = await openDb();
  const issued = await issueInvoice(db, { orderId: await anOrder(db), actorUserId: null, now: new Date("2026-12-31T23:30:00Z") });
  expect(issued.ok && [issued.invoice.number, issued.invoice.issuedOn]).toEqual(["2027/0001", "2027-01-01"]);
});

test("an unpaid order, one without an invoice request or an unknown one is refused and takes no number", async () => {
  const db = await openDb();
  const unpaid = await anOrder(db, privateInvoice, { paid: false });
  expect(await issueInvoice(db, { orderId: unpaid, actorUserId: null, now: november })).toEqual({ ok: false, error: "not-paid" });
  const noRequest = await anOrder(db, {});
  expect(await issueInvoice(db, { orderId: noRequest, actorUserId: null, now: november })).toEqual({ ok: false, error: "no-invoice-requested" });
  expect(await issueInvoice(db, { orderId: crypto.randomUUID(), actorUserId: null, now: november })).toEqual({ ok: false, error: "order-not-found" });
  expect(await db.select().from(invoiceCounters)).toEqual([]);
  const issued = await issueInvoice(db, { orderId: await anOrder(db), actorUserId: null, now: november });
  expect(issued.ok && issued.invoice.number).toBe("2026/0001");
});

test("a company's invoice names its partita IVA and SDI code; the staff member who issued it is in the activity log", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const orderId = await anOrder(db, { invoiceKind: "company", companyName: "Nidi S.r.l.", vatNumber: "01234567897", sdiCode: "M5UXCR1" });
  const issued = await issueInvoice(db, { orderId, actorUserId: admin, now: november });
  expect(issued.ok).toBe(true);
  if (!issued.ok) return;
  expect(issued.invoice.xml).toContain("<CodiceDestinatario>M5UXCR1</CodiceDestinatario>");
  expect(issued.invoice.xml).toContain("<IdCodice>01234567897</IdCodice></IdFiscaleIVA><Anagrafica><Denominazione>Nidi S.r.l.</Denominazione>");
  const audit = await db.select().from(auditLog).where(eq(auditLog.action, "invoice.issue"));
  expect(audit).toMatchObject([{ actorUserId: admin, entity: "invoice", entityId: "2026/0001", details: { orderId } }]);
});

test("an issued invoice never changes: the database refuses to update or delete it", async () => {
  const db = await openDb();
  const issued = await issueInvoice(db, { orderId: await anOrder(db), actorUserId: null, now: november });
  if (!issued.ok) throw new Error(issued.error);
  await expect(db.update(invoices).set({ totalCents: 1 }).where(eq(invoices.id, issued.invoice.id))).rejects.toThrow();
  await expect(db.delete(invoices).where(eq(invoices.id, issued.invoice.id))).rejects.toThrow();
  const [row] = await db.select({ totalCents: invoices.totalCents }).from(invoices);
  expect(row!.totalCents).toBe(issued.invoice.totalCents);
});

test("from number 1,296 of a year on, an invoice and a credit note of the same number still get files of their own names", async () => {
  const db = await openDb();
  const names = new Map<string, string>();
  for (const lastNumber of [1294, 1295, 46_653]) {
    await db
      .insert(invoiceCounters)
      .values([
        { series: "FT", year: 2026, lastNumber },
        { series: "NC", year: 2026, lastNumber },
      ])
      .onConflictDoUpdate({ target: [invoiceCounters.series, invoiceCounters.year], set: { lastNumber } });
    const orderId = await anOrder(db);
    const invoice = await issueInvoice(db, { orderId, actorUserId: null, now: november });
    const note = await issueCreditNote(db, { orderId, refund: "whole", sourceKey: `whole-${lastNumber}`, actorUserId: null, now: november });
    if (!invoice.ok || !note.ok) throw new Error("not issued");
    expect(invoice.invoice.number).toBe(`2026/${lastNumber + 1}`);
    expect(note.creditNote.number).toBe(`NC2026/${lastNumber + 1}`);
    for (const issued of [invoice.invoice, note.creditNote]) {
      const name = fatturaPaFileName(issued.document);
      expect(name).toMatch(/^IT07412580636_[0-9A-Z]{5}\.xml$/);
      expect(issued.xml).toContain(`<ProgressivoInvio>${name.slice(14, 19)}</ProgressivoInvio>`);
      expect(names.get(name), `${name} of ${issued.number}`).toBeUndefined();
      names.set(name, issued.number);
    }
  }
  expect(names.size).toBe(6);
});

test("a credit note (TD04) for a partial refund has its own numbers, names the invoice and never credits more than it billed", async () => {
  const db = await openDb();
  const orderId = await anOrder(db);
  expect(
    await issueCreditNote(db, { orderId, refund: { lines: [], deliveryCents: 690 }, sourceKey: "refund-0", actorUserId: null, now: november }),
  ).toEqual({ ok: false, error: "not-invoiced" });
  const invoice = await issueInvoice(db, { orderId, actorUserId: null, now: november });
  if (!invoice.ok) throw new Error(invoice.error);
  const lineOf = async (name: string) => {
    const [line] = await db.select({ id: orderLines.id }).from(orderLines).where(eq(orderLines.name, name));
    return line!.id;
  };
  const [stroller, formula] = [await lineOf("Passeggino Trio"), await lineOf("Latte in polvere")];

  const refund = { lines: [{ orderLineId: formula, quantity: 1, amountCents: 1_799 }], deliveryCents: 690 };
  const note = await issueCreditNote(db, { orderId, refund, sourceKey: "refund-1", actorUserId: null, now: november });
  expect(note.ok).toBe(true);
  if (!note.ok) return;
  expect(note.creditNote).toMatchObject({ kind: "credit_note", number: "NC2026/0001", totalCents: 2_489 });
  expect(note.creditNote.document.vatSummary).toEqual([
    { vatRatePercent: 22, netCents: 566, vatCents: 124, grossCents: 690 },
    { vatRatePercent: 4, netCents: 1_730, vatCents: 69, grossCents: 1_799 },
  ]);
  expect(note.creditNote.xml).toContain("<TipoDocumento>TD04</TipoDocumento>");
  expect(note.creditNote.xml).toContain("<DatiFattureCollegate><IdDocumento>2026/0001</IdDocumento><Data>2026-11-26</Data></DatiFattureCollegate>");

  // The same refund again gives the same note; a second refund the next number.
  const repeated = await issueCreditNote(db, { orderId, refund, sourceKey: "refund-1", actorUserId: null, now: november });
  expect(repeated.ok && repeated.alreadyIssued && repeated.creditNote.id).toBe(note.creditNote.id);
  const tooMuch = { lines: [{ orderLineId: stroller, quantity: 1, amountCents: 24_991 }], deliveryCents: 0 };
  expect(await issueCreditNote(db, { orderId, refund: tooMuch, sourceKey: "refund-2", actorUserId: null, now: november })).toEqual({
    ok: false,
    error: "more-than-invoiced",
  });
  expect(
    await issueCreditNote(db, {
      orderId,
      refund: { lines: [{ orderLineId: crypto.randomUUID(), quantity: 1, amountCents: 1 }], deliveryCents: 0 },
      sourceKey: "r",
      actorUserId: null,
      now: november,
    }),
  ).toEqual({ ok: false, error: "unknown-line" });
  const second = await issueCreditNote(db, {
    orderId,
    refund: { lines: [{ orderLineId: stroller, quantity: 1, amountCents: 24_990 }], deliveryCents: 0 },
    sourceKey: "refund-3",
    actorUserId: null,
    now: november,
  });
  expect(second.ok && second.creditNote.number).toBe("NC2026/0002");
  // Everything is credited now but the second tin: nothing more than that can be.
  const beyond = { lines: [{ orderLineId: formula, quantity: 2, amountCents: 3_598 }], deliveryCents: 0 };
  expect(await issueCreditNote(db, { orderId, refund: beyond, sourceKey: "refund-4", actorUserId: null, now: november })).toEqual({
    ok: false,
    error: "more-than-invoiced",
  });
  expect((await getOrderInvoices(db, orderId)).map((document) => document.number)).toEqual(["2026/0001", "NC2026/0001", "NC2026/0002"]);
});

describeOnPostgres("on PostgreSQL, concurrent issuing", () => {
  test("twelve invoices issued at once get numbers 1 to 12, none twice, none missing", async () => {
    const db = await openDb(12);
    const orderIds: string[] = [];
    for (let index = 0; index < 12; index++) orderIds.push(await anOrder(db));
    // One order not asking for an invoice fails in the middle of the race and must leave no gap.
    const refused = await anOrder(db, {});
    const results = await Promise.all([...orderIds, refused].map((orderId) => issueInvoice(db, { orderId, actorUserId: null, now: november })));
    expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, error: "no-invoice-requested" }]);
    const rows = await db.select({ sequence: invoices.sequence }).from(invoices).orderBy(asc(invoices.sequence));
    expect(rows.map((row) => row.sequence)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    const [counter] = await selectRows<{ last_number: number }>(
      db,
      sql`select last_number from invoice_counters where series = 'FT' and year = 2026`,
    );
    expect(Number(counter!.last_number)).toBe(12);
  });

  test("two staff issuing the same order at once get one invoice", async () => {
    const db = await openDb(4);
    const orderId = await anOrder(db);
    const [first, second] = await Promise.all([
      issueInvoice(db, { orderId, actorUserId: null, now: november }),
      issueInvoice(db, { orderId, actorUserId: null, now: november }),
    ]);
    expect(first.ok && second.ok && first.invoice.id === second.invoice.id).toBe(true);
    expect([first.ok && first.alreadyIssued, second.ok && second.alreadyIssued].sort()).toEqual([false, true]);
    expect(await db.select({ id: invoices.id }).from(invoices)).toHaveLength(1);
  });
});
