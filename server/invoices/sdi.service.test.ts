import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { auditLog, orders, sdiNotifications, sdiTransmissions } from "#server/db/schema.ts";
import { saveSettings } from "#server/admin/settings-admin.service.ts";
import { changeOrderStatus, markOrderPaid } from "#server/orders/order.service.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder } from "#tests/fixtures/checkout.fixtures.ts";
import { startLocalAcubeServer, type LocalAcubeServer } from "#tests/peers/local-acube-server.ts";
import { createAcubeSender } from "./acube";
import { issueDueInvoices, issueInvoice } from "./invoice.service";
import { CompanyBuyerCorrection } from "./sdi.inputs";
import { listInvoiceTransmissions, listSdiDue } from "./sdi-view.service";
import {
  pollSilentTransmissions,
  queueUnsentDocuments,
  receiveSdiCallback,
  resendCorrectedInvoice,
  sdiSilenceMs,
  sendDueTransmissions,
} from "./sdi.service";

/** Each test places and pays orders: seconds each on a busy machine. */
const slow = { timeout: 60_000 };
const paidAt = new Date("2026-11-26T10:00:00Z");
const callbackUrl = "https://bimbifelici.example/api/sdi/notifiche";
const company = { invoiceKind: "company", companyName: "Nidi S.r.l.", vatNumber: "01234567897", sdiCode: "M5UXCR1" };

async function setUp() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const acube = await startLocalAcubeServer({ webhookUrl: callbackUrl });
  onTestFinished(() => acube.close());
  const sender = createAcubeSender({
    ACUBE_EMAIL: acube.email,
    ACUBE_PASSWORD: acube.password,
    ACUBE_API_URL: acube.url,
    ACUBE_LOGIN_URL: acube.url,
  })!;
  return { db: handle.db, acube, sender };
}

/** A paid card order of a stroller (22 %) and two tins of infant milk (10 %) whose buyer asked for `fields`' invoice. */
async function anInvoicedOrder(db: Db, fields: Record<string, string> = company) {
  const stroller = await createProduct(db, { nameIt: "Passeggino Trio", priceCents: 24_990, vatRatePercent: 22 });
  const milk = await createProduct(db, { nameIt: "Latte in polvere 1", priceCents: 2_390, vatRatePercent: 10 });
  const cartId = await cartWith(db, [
    { variantId: stroller.variantId, quantity: 1 },
    { variantId: milk.variantId, quantity: 2 },
  ]);
  const placed = await placeTestOrder(db, { cartId, input: checkoutInput(fields), now: paidAt });
  if (!placed.ok) throw new Error(placed.error);
  const [order] = await db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, placed.orderId));
  await markOrderPaid(db, { orderId: placed.orderId, provider: "test", providerRef: null, amountCents: order!.totalCents, now: paidAt });
  const issued = await issueInvoice(db, { orderId: placed.orderId, actorUserId: null, now: paidAt });
  if (!issued.ok) throw new Error(issued.error);
  return { orderId: placed.orderId, invoice: issued.invoice };
}

/** The SDI answers through the local intermediary; the shop receives the callback as its route does. */
async function answer(
  db: Db,
  acube: LocalAcubeServer,
  uuid: string,
  type: string,
  errors?: { code: string; description: string }[],
  now = new Date(),
) {
  const callback = acube.buildCallback(uuid, type, errors, { at: now });
  return receiveSdiCallback(
    db,
    { ACUBE_WEBHOOK_PUBLIC_KEY: acube.publicKey },
    { method: "POST", targetUri: callbackUrl, headers: new Headers(callback.headers), body: callback.body, now },
  );
}

test(
  "an issued invoice is queued, handed to the intermediary and marked delivered by the SDI's RC; a replayed RC changes nothing",
  slow,
  async () => {
    const { db, acube, sender } = await setUp();
    const { invoice } = await anInvoicedOrder(db);
    const now = new Date("2026-11-26T10:05:00Z");
    expect(await queueUnsentDocuments(db, now)).toBe(1);
    expect(await queueUnsentDocuments(db, now)).toBe(0);
    expect(await sendDueTransmissions(db, sender, { now })).toMatchObject({ claimed: 1, sent: 1 });
    expect(acube.files).toHaveLength(1);
    expect(acube.files[0]!.xml).toBe(invoice.xml);
    expect(acube.files[0]!.xml).toContain("<AliquotaIVA>10.00</AliquotaIVA>");

    const [sent] = await listInvoiceTransmissions(db, invoice.id);
    expect(sent).toMatchObject({ attempt: 1, status: "sent", tries: 1 });
    const callback = acube.buildCallback(acube.files[0]!.uuid, "RC");
    const receive = () =>
      receiveSdiCallback(
        db,
        { ACUBE_WEBHOOK_PUBLIC_KEY: acube.publicKey },
        { method: "POST", targetUri: callbackUrl, headers: new Headers(callback.headers), body: callback.body, now: new Date() },
      );
    expect(await receive()).toEqual({ ok: true, outcome: "applied" });
    expect(await receive()).toEqual({ ok: true, outcome: "duplicate" });
    const [delivered] = await listInvoiceTransmissions(db, invoice.id);
    expect(delivered).toMatchObject({ status: "delivered", errors: [], sdiId: expect.stringMatching(/^\d+$/) });
    expect(delivered!.notifications.map((note) => note.type)).toEqual(["RC"]);
    expect(await sendDueTransmissions(db, sender, { now })).toMatchObject({ claimed: 0 });
    expect((await listSdiDue(db, now)).filter((item) => item.kind === "to-transmit")).toEqual([]);
  },
);

test("an MC leaves the invoice valid but not delivered: it is no longer due", slow, async () => {
  const { db, acube, sender } = await setUp();
  const { invoice } = await anInvoicedOrder(db, { invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" });
  await queueUnsentDocuments(db, paidAt);
  await sendDueTransmissions(db, sender, { now: paidAt });
  expect(await answer(db, acube, acube.files[0]!.uuid, "MC")).toEqual({ ok: true, outcome: "applied" });
  expect((await listInvoiceTransmissions(db, invoice.id))[0]!.status).toBe("not_delivered");
  expect(await listSdiDue(db, paidAt)).toEqual([]);
});

test("an intermediary that is down gets the file again later; one that refuses the file marks it refused with its reason", slow, async () => {
  const { db, acube, sender } = await setUp();
  const { invoice } = await anInvoicedOrder(db);
  await queueUnsentDocuments(db, paidAt);
  acube.failNextSends.push(503);
  expect(await sendDueTransmissions(db, sender, { now: paidAt })).toMatchObject({ claimed: 1, retried: 1 });
  const [waiting] = await listInvoiceTransmissions(db, invoice.id);
  expect(waiting).toMatchObject({ status: "queued", tries: 1, lastError: expect.stringContaining("Service unavailable") });
  expect(waiting!.nextTryAt.getTime() - paidAt.getTime()).toBe(60_000);
  // Not due before its next try; then it goes.
  expect(await sendDueTransmissions(db, sender, { now: new Date(paidAt.getTime() + 30_000) })).toMatchObject({ claimed: 0 });
  expect(await sendDueTransmissions(db, sender, { now: new Date(paidAt.getTime() + 60_000) })).toMatchObject({ sent: 1 });
  expect(acube.files).toHaveLength(1);

  const other = await anInvoicedOrder(db);
  await queueUnsentDocuments(db, paidAt);
  acube.failNextSends.push(422);
  expect(await sendDueTransmissions(db, sender, { now: paidAt })).toMatchObject({ refused: 1 });
  expect((await listInvoiceTransmissions(db, other.invoice.id))[0]).toMatchObject({
    status: "refused",
    errors: [{ code: "", description: expect.stringContaining("Il file non è conforme") }],
  });
});

test("a file rejected with 00305 is corrected and resent under the same number and date, then delivered", slow, async () => {
  const { db, acube, sender } = await setUp();
  const admin = await createAdminUser(db);
  const { invoice } = await anInvoicedOrder(db);
  await queueUnsentDocuments(db, paidAt);
  await sendDueTransmissions(db, sender, { now: paidAt });
  const rejectedAt = new Date("2026-11-26T12:00:00Z");
  const errors = [{ code: "00305", description: "1.4.1.1.2 <IdCodice> non valido" }];
  expect(await answer(db, acube, acube.files[0]!.uuid, "NS", errors, rejectedAt)).toEqual({ ok: true, outcome: "applied" });
  const [rejected] = await listInvoiceTransmissions(db, invoice.id);
  expect(rejected).toMatchObject({ status: "rejected", errors });
  // Due again: five days from the rejection.
  expect(await listSdiDue(db, rejectedAt)).toEqual([
    expect.objectContaining({ kind: "to-transmit", invoiceId: invoice.id, status: "rejected", dueBy: "2026-12-01" }),
  ]);

  // A partita IVA that fails its check digit is refused at the edge: nothing queued.
  expect(CompanyBuyerCorrection.safeParse({ vatNumber: "01234567890", sdiCode: "M5UXCR1", pec: "" }).success).toBe(false);
  expect(await listInvoiceTransmissions(db, invoice.id)).toHaveLength(1);

  const correction = CompanyBuyerCorrection.parse({ vatNumber: "IT 07412580636", sdiCode: "", pec: "Nidi@PEC.example.it" });
  const resent = await resendCorrectedInvoice(db, {
    invoiceId: invoice.id,
    correction: { kind: "company", ...correction },
    actorUserId: admin,
    now: rejectedAt,
  });
  expect(resent).toEqual({ ok: true, attempt: 2 });
  expect(
    await resendCorrectedInvoice(db, { invoiceId: invoice.id, correction: { kind: "company", ...correction }, actorUserId: admin, now: rejectedAt }),
  ).toEqual({
    ok: false,
    error: "not-rejected",
  });
  await sendDueTransmissions(db, sender, { now: rejectedAt });
  const second = acube.files[1]!.xml;
  expect(second).toContain("<IdCodice>07412580636</IdCodice>");
  expect(second).toContain("<PECDestinatario>nidi@pec.example.it</PECDestinatario>");
  expect(second).toContain("<CodiceDestinatario>0000000</CodiceDestinatario>");
  expect(second).toContain(`<Numero>${invoice.number}</Numero>`);
  expect(second).toContain(`<Data>${invoice.issuedOn}</Data>`);
  expect(await answer(db, acube, acube.files[1]!.uuid, "RC")).toEqual({ ok: true, outcome: "applied" });
  expect((await listInvoiceTransmissions(db, invoice.id)).map((file) => [file.attempt, file.status])).toEqual([
    [2, "delivered"],
    [1, "rejected"],
  ]);
  const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "invoice.resend"));
  expect(entry).toMatchObject({ actorUserId: admin, entityId: invoice.number, details: { attempt: 2, rejectedErrors: ["00305"] } });
});

test("a rejected file is not resent under its number after five days, nor with another kind of buyer", slow, async () => {
  const { db, acube, sender } = await setUp();
  const admin = await createAdminUser(db);
  const { invoice } = await anInvoicedOrder(db);
  await queueUnsentDocuments(db, paidAt);
  await sendDueTransmissions(db, sender, { now: paidAt });
  await answer(db, acube, acube.files[0]!.uuid, "NS", [{ code: "00311", description: "CodiceDestinatario non valido" }], paidAt);
  const correction = { kind: "company" as const, vatNumber: "01234567897", sdiCode: "", pec: "" };
  expect(await resendCorrectedInvoice(db, { invoiceId: invoice.id, correction, actorUserId: admin, now: new Date("2026-12-02T10:00:00Z") })).toEqual({
    ok: false,
    error: "too-late",
  });
  expect(
    await resendCorrectedInvoice(db, {
      invoiceId: invoice.id,
      correction: { kind: "private", fiscalCode: "RSSMRA85T10A562S" },
      actorUserId: admin,
      now: paidAt,
    }),
  ).toEqual({ ok: false, error: "wrong-buyer-kind" });
  expect(await listInvoiceTransmissions(db, invoice.id)).toHaveLength(1);
});

test("a forged, altered, stale or unknown callback is refused and records nothing", slow, async () => {
  const { db, acube, sender } = await setUp();
  const { invoice } = await anInvoicedOrder(db);
  await queueUnsentDocuments(db, paidAt);
  await sendDueTransmissions(db, sender, { now: paidAt });
  const uuid = acube.files[0]!.uuid;
  const env = { ACUBE_WEBHOOK_PUBLIC_KEY: acube.publicKey };
  const receive = (callback: { body: string; headers: Record<string, string> }, options: { targetUri?: string; now?: Date } = {}) =>
    receiveSdiCallback(db, env, {
      method: "POST",
      targetUri: options.targetUri ?? callbackUrl,
      headers: new Headers(callback.headers),
      body: callback.body,
      now: options.now ?? new Date(),
    });
  const good = acube.buildCallback(uuid, "RC");
  expect(await receive({ ...good, body: good.body.replace('"RC"', '"NS"') })).toEqual({ ok: false, error: "invalid-signature" });
  expect(await receive({ ...good, headers: { ...good.headers, signature: "sig1=:AAAA:" } })).toEqual({ ok: false, error: "invalid-signature" });
  expect(await receive(good, { targetUri: "https://elsewhere.example/api/sdi/notifiche" })).toEqual({ ok: false, error: "invalid-signature" });
  expect(await receive(good, { now: new Date(Date.now() + 10 * 60_000) })).toEqual({ ok: false, error: "invalid-signature" });
  const other = await startLocalAcubeServer({ webhookUrl: callbackUrl });
  onTestFinished(() => other.close());
  expect(await receive(other.buildCallback(uuid, "RC"))).toEqual({ ok: false, error: "invalid-signature" });
  expect(await receive(acube.buildCallback(crypto.randomUUID(), "RC"))).toEqual({ ok: false, error: "unknown-file" });
  expect(
    await receiveSdiCallback(
      db,
      {},
      { method: "POST", targetUri: callbackUrl, headers: new Headers(good.headers), body: good.body, now: new Date() },
    ),
  ).toEqual({
    ok: false,
    error: "not-configured",
  });
  expect(await db.select().from(sdiNotifications)).toEqual([]);
  expect((await db.select().from(sdiTransmissions).where(eq(sdiTransmissions.invoiceId, invoice.id)))[0]!.status).toBe("sent");
});

test("a paid order whose invoice is not issued yet is due 12 days after its payment", slow, async () => {
  const { db } = await setUp();
  const stroller = await createProduct(db, { nameIt: "Passeggino", priceCents: 10_000, vatRatePercent: 22 });
  const cartId = await cartWith(db, [{ variantId: stroller.variantId, quantity: 1 }]);
  const placed = await placeTestOrder(db, { cartId, input: checkoutInput(company), now: paidAt });
  if (!placed.ok) throw new Error(placed.error);
  expect(await listSdiDue(db, paidAt)).toEqual([]);
  const [order] = await db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, placed.orderId));
  await markOrderPaid(db, { orderId: placed.orderId, provider: "test", providerRef: null, amountCents: order!.totalCents, now: paidAt });
  expect(await listSdiDue(db, paidAt)).toEqual([
    expect.objectContaining({ kind: "to-issue", orderId: placed.orderId, paidOn: "2026-11-26", dueBy: "2026-12-08" }),
  ]);
});

test("invoices are issued on shipping when the settings say so, and the settings refuse a moment they do not know", slow, async () => {
  const { db } = await setUp();
  const admin = await createAdminUser(db);
  const stroller = await createProduct(db, { nameIt: "Passeggino", priceCents: 10_000, vatRatePercent: 22 });
  const placed = await placeTestOrder(db, {
    cartId: await cartWith(db, [{ variantId: stroller.variantId, quantity: 1 }]),
    input: checkoutInput(company),
    now: paidAt,
  });
  if (!placed.ok) throw new Error(placed.error);
  const [order] = await db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, placed.orderId));
  await markOrderPaid(db, { orderId: placed.orderId, provider: "test", providerRef: null, amountCents: order!.totalCents, now: paidAt });
  // The default is the staff's button.
  expect(await issueDueInvoices(db, paidAt)).toEqual({ issued: 0, refused: 0 });

  expect(await saveSettings(db, { key: "invoicing", form: { issueAt: "domani" }, actorUserId: admin })).toEqual({
    ok: false,
    errors: { issueAt: "sdi.settings.errors.issueAt" },
  });
  expect((await getSettings(db, ["invoicing"])).invoicing.issueAt).toBe("manual");
  expect(await saveSettings(db, { key: "invoicing", form: { issueAt: "shipping" }, actorUserId: admin })).toEqual({ ok: true });
  expect(await issueDueInvoices(db, paidAt)).toEqual({ issued: 0, refused: 0 });
  await changeOrderStatus(db, { orderId: placed.orderId, to: "preparing", actorUserId: admin, now: paidAt });
  expect(
    await changeOrderStatus(db, {
      orderId: placed.orderId,
      to: "shipped",
      actorUserId: admin,
      carrier: "brt",
      trackingNumber: "123456789",
      now: paidAt,
    }),
  ).toEqual({ ok: true });
  expect(await issueDueInvoices(db, paidAt)).toEqual({ issued: 1, refused: 0 });
  expect(await issueDueInvoices(db, paidAt)).toEqual({ issued: 0, refused: 0 });
  expect((await listSdiDue(db, paidAt)).map((item) => item.kind)).toEqual(["to-transmit"]);
});

test("a file whose callback was lost is asked about after six hours and settled by the SDI's answer it missed", slow, async () => {
  const { db, acube, sender } = await setUp();
  const { invoice } = await anInvoicedOrder(db);
  await queueUnsentDocuments(db, paidAt);
  await sendDueTransmissions(db, sender, { now: paidAt });
  const uuid = acube.files[0]!.uuid;
  // The SDI refuses the file; its callback never reaches the shop.
  acube.buildCallback(uuid, "NS", [{ code: "00305", description: "1.4.1.1.2 <IdCodice> non valido" }]);

  const soon = new Date(paidAt.getTime() + sdiSilenceMs - 60_000);
  expect(await pollSilentTransmissions(db, sender, { now: soon })).toEqual({ asked: 0, applied: 0, failed: 0 });
  expect((await listInvoiceTransmissions(db, invoice.id))[0]).toMatchObject({ status: "sent" });

  const later = new Date(paidAt.getTime() + sdiSilenceMs);
  acube.failNextLists.push(503);
  expect(await pollSilentTransmissions(db, sender, { now: later })).toEqual({ asked: 1, applied: 0, failed: 1 });
  expect((await listInvoiceTransmissions(db, invoice.id))[0]).toMatchObject({ status: "sent" });
  // Not asked again at once after a failure: six hours more.
  expect(await pollSilentTransmissions(db, sender, { now: later })).toMatchObject({ asked: 0 });

  const next = new Date(later.getTime() + sdiSilenceMs);
  expect(await pollSilentTransmissions(db, sender, { now: next })).toEqual({ asked: 1, applied: 1, failed: 0 });
  const [rejected] = await listInvoiceTransmissions(db, invoice.id);
  expect(rejected).toMatchObject({ status: "rejected", errors: [{ code: "00305" }] });
  expect(rejected!.notifications.map((note) => note.type)).toEqual(["NS"]);
  // Settled: never asked again; the callback arriving late is a duplicate.
  expect(await pollSilentTransmissions(db, sender, { now: new Date(next.getTime() + 2 * sdiSilenceMs) })).toMatchObject({ asked: 0 });
  expect(acube.listsAsked.get(uuid)).toBe(2);
});

test("a file the SDI has not answered yet stays sent and is asked about again six hours later", slow, async () => {
  const { db, acube, sender } = await setUp();
  const { invoice } = await anInvoicedOrder(db);
  await queueUnsentDocuments(db, paidAt);
  await sendDueTransmissions(db, sender, { now: paidAt });
  const first = new Date(paidAt.getTime() + sdiSilenceMs);
  expect(await pollSilentTransmissions(db, sender, { now: first })).toEqual({ asked: 1, applied: 0, failed: 0 });
  expect((await listInvoiceTransmissions(db, invoice.id))[0]).toMatchObject({ status: "sent" });
  acube.buildCallback(acube.files[0]!.uuid, "RC");
  expect(await pollSilentTransmissions(db, sender, { now: new Date(first.getTime() + sdiSilenceMs) })).toEqual({ asked: 1, applied: 1, failed: 0 });
  expect((await listInvoiceTransmissions(db, invoice.id))[0]).toMatchObject({ status: "delivered" });
});
