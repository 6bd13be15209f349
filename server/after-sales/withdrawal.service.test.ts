import { count, eq, sql } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { getOrderView } from "#server/orders/order-view.service.ts";
import type { Db } from "#server/db/client.ts";
import { outboxEmails, returns, withdrawals } from "#server/db/schema.ts";
import { afterSalesLinks, deliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { createUser } from "#tests/fixtures/cart.fixtures.ts";
import { createTestDb } from "#tests/db.ts";
import { getWithdrawalOptions, submitWithdrawal } from "./withdrawal.service";
import { parseWithdrawalForm } from "./withdrawal.inputs";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const viaLink = { hasOrderLink: true, userId: null };

function form(lines: { orderLineId: string; quantity: number }[], extra: { iban?: string; name?: string; submissionKey?: string } = {}) {
  return {
    submissionKey: extra.submissionKey ?? crypto.randomUUID(),
    name: extra.name ?? "Maria Rossi",
    iban: extra.iban ?? null,
    lines,
  };
}

async function countOf(db: Db, table: typeof withdrawals | typeof returns | typeof outboxEmails) {
  const [row] = await db.select({ n: count() }).from(table);
  return row!.n;
}

test("a customer withdraws from two of three lines: statement kept, return opened, acknowledgement queued with the time", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db);
  const options = await getWithdrawalOptions(db, { orderId: order.orderId, now: new Date() });
  expect(options?.isOffered).toBe(true);
  expect(new Map(options?.lines.map((line) => [line.name, line.exclusion]))).toEqual(
    new Map([
      [order.bib.name, null],
      [order.blanket.name, null],
      [order.towel.name, "personalised"],
    ]),
  );
  const mailsBefore = await countOf(db, outboxEmails);
  const done = await submitWithdrawal(db, {
    orderId: order.orderId,
    access: viaLink,
    input: form([
      { orderLineId: order.bib.id, quantity: 1 },
      { orderLineId: order.blanket.id, quantity: 1 },
    ]),
    locale: "it",
    now: new Date(),
    links: afterSalesLinks,
  });
  expect(done.ok).toBe(true);
  if (!done.ok) return;
  const [statement] = await db.select().from(withdrawals);
  expect(statement!.lines.map((line) => line.quantity)).toEqual([1, 1]);
  expect(statement!.channel).toBe("online-form");
  const [opened] = await db.select().from(returns);
  expect(opened!.status).toBe("requested");
  expect(opened!.withdrawalId).toBe(statement!.id);
  // 14 days from the day the withdrawal came in
  expect(opened!.refundDueAt.getTime() - statement!.receivedAt.getTime()).toBeGreaterThan(13 * 86_400_000);

  expect(await countOf(db, outboxEmails)).toBe(mailsBefore + 1);
  const [mail] = await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "withdrawal-received"));
  expect(mail!.subject).toBe(`Recesso ricevuto: ordine n. ${order.orderNumber}`);
  const text = mail!.textBody.replace(/[\u00a0\u202f]/g, " ");
  expect(text).toContain("Maria Rossi");
  expect(text).toContain(order.bib.name);
  expect(text).toContain(order.blanket.name);
  expect(text).not.toContain(order.towel.name);
  // the date and time received, to the second, in Italian time
  const time = new Intl.DateTimeFormat("it-IT", { timeZone: "Europe/Rome", hour: "2-digit", minute: "2-digit", second: "2-digit" }).format(
    statement!.receivedAt,
  );
  expect(text).toContain(time);

  const view = await getOrderView(db, { orderId: order.orderId, locale: "it" });
  expect(view!.history.at(-1)?.note).toBe(`withdrawal-received:${done.returnNumber}`);
  expect(view!.status).toBe("completed");
});

test("the statement cannot be changed or deleted once stored", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db);
  const done = await submitWithdrawal(db, {
    orderId: order.orderId,
    access: viaLink,
    input: form([{ orderLineId: order.bib.id, quantity: 2 }]),
    locale: "it",
    now: new Date(),
    links: null,
  });
  expect(done.ok).toBe(true);
  await expect(db.execute(sql`update withdrawals set name = 'Someone else'`)).rejects.toThrow();
  await expect(db.execute(sql`delete from withdrawals`)).rejects.toThrow();
  const [statement] = await db.select().from(withdrawals);
  expect(statement!.name).toBe("Maria Rossi");
});

test("bad input changes nothing: after the period, another customer's order, more than bought, twice, a personalised line", async () => {
  const db = await openDb();
  const owner = await createUser(db);
  const stranger = await createUser(db);
  const order = await deliveredOrder(db, {
    userId: owner,
    deliveredAt: new Date(Date.now() - 20 * 86_400_000),
    placedAt: new Date(Date.now() - 22 * 86_400_000),
  });
  const now = new Date();
  const submit = (input: ReturnType<typeof form>, access: { hasOrderLink: boolean; userId: string | null } = viaLink) =>
    submitWithdrawal(db, { orderId: order.orderId, access, input, locale: "it", now, links: null });

  expect(await submit(form([{ orderLineId: order.bib.id, quantity: 1 }]))).toEqual({ ok: false, error: "period-over" });
  expect((await getWithdrawalOptions(db, { orderId: order.orderId, now }))!.window.state).toBe("closed");

  const recent = await deliveredOrder(db, { userId: owner });
  const submitRecent = (input: ReturnType<typeof form>, access: { hasOrderLink: boolean; userId: string | null } = viaLink) =>
    submitWithdrawal(db, { orderId: recent.orderId, access, input, locale: "it", now, links: null });
  expect(await submitRecent(form([{ orderLineId: recent.bib.id, quantity: 1 }]), { hasOrderLink: false, userId: stranger })).toEqual({
    ok: false,
    error: "not-your-order",
  });
  expect(await submitRecent(form([{ orderLineId: recent.bib.id, quantity: 1 }]), { hasOrderLink: false, userId: null })).toEqual({
    ok: false,
    error: "not-your-order",
  });
  expect(await submitRecent(form([{ orderLineId: recent.bib.id, quantity: 3 }]))).toEqual({ ok: false, error: "more-than-bought" });
  expect(await submitRecent(form([{ orderLineId: recent.towel.id, quantity: 1 }]))).toEqual({ ok: false, error: "excluded-line" });
  expect(await submitRecent(form([{ orderLineId: order.bib.id, quantity: 1 }]))).toEqual({ ok: false, error: "unknown-line" });
  expect(await submitRecent(form([{ orderLineId: recent.bib.id, quantity: 0 }]))).toEqual({ ok: false, error: "nothing-chosen" });
  expect(await countOf(db, withdrawals)).toBe(0);
  expect(await countOf(db, returns)).toBe(0);

  const key = crypto.randomUUID();
  expect(
    (await submitRecent(form([{ orderLineId: recent.bib.id, quantity: 1 }], { submissionKey: key }), { hasOrderLink: false, userId: owner })).ok,
  ).toBe(true);
  const mails = await countOf(db, outboxEmails);
  // the same form again, then more than is left counting the first statement
  expect(await submitRecent(form([{ orderLineId: recent.bib.id, quantity: 1 }], { submissionKey: key }))).toEqual({
    ok: false,
    error: "already-received",
  });
  expect(await submitRecent(form([{ orderLineId: recent.bib.id, quantity: 2 }]))).toEqual({ ok: false, error: "more-than-bought" });
  expect(
    (
      await submitRecent(
        form([
          { orderLineId: recent.bib.id, quantity: 1 },
          { orderLineId: recent.blanket.id, quantity: 1 },
        ]),
      )
    ).ok,
  ).toBe(true);
  expect(await submitRecent(form([{ orderLineId: recent.bib.id, quantity: 1 }]))).toEqual({ ok: false, error: "already-withdrawn" });
  expect(await countOf(db, withdrawals)).toBe(2);
  expect(await countOf(db, outboxEmails)).toBe(mails + 1);
  expect((await getWithdrawalOptions(db, { orderId: recent.orderId, now }))!.isOffered).toBe(false);
});

test("cash on delivery asks for an IBAN, checked with its check digits", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db, { paymentMethod: "cash_on_delivery" });
  const now = new Date();
  expect((await getWithdrawalOptions(db, { orderId: order.orderId, now }))!.needsIban).toBe(true);
  expect(
    await submitWithdrawal(db, {
      orderId: order.orderId,
      access: viaLink,
      input: form([{ orderLineId: order.bib.id, quantity: 1 }]),
      locale: "en",
      now,
      links: null,
    }),
  ).toEqual({
    ok: false,
    error: "iban-required",
  });
  const fields = { submissionKey: crypto.randomUUID(), name: "Maria Rossi", iban: "IT61X0542811101000000123456", [`qty:${order.bib.id}`]: "1" };
  expect(parseWithdrawalForm(fields)).toEqual({ ok: false, errors: { iban: "afterSales.errors.iban" } });
  const parsed = parseWithdrawalForm({ ...fields, iban: "it60 x054 2811 1010 0000 0123 456" });
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  const done = await submitWithdrawal(db, { orderId: order.orderId, access: viaLink, input: parsed.input, locale: "en", now, links: null });
  expect(done.ok).toBe(true);
  const [opened] = await db.select().from(returns);
  expect(opened!.refundIban).toBe("IT60X0542811101000000123456");
});

test("before delivery the period has not started; before shipping the function is not offered", async () => {
  const db = await openDb();
  const shipped = await deliveredOrder(db, { stage: "shipped" });
  const options = await getWithdrawalOptions(db, { orderId: shipped.orderId, now: new Date() });
  expect(options!.window).toEqual({ state: "open", startsAt: null, closesAt: null });
  expect(options!.isOffered).toBe(true);

  const preparing = await deliveredOrder(db, { stage: "preparing" });
  const inShop = await getWithdrawalOptions(db, { orderId: preparing.orderId, now: new Date() });
  expect(inShop!.window).toEqual({ state: "not-yet" });
  expect(inShop!.isOffered).toBe(false);
  expect(
    await submitWithdrawal(db, {
      orderId: preparing.orderId,
      access: viaLink,
      input: form([{ orderLineId: preparing.bib.id, quantity: 1 }]),
      locale: "it",
      now: new Date(),
      links: null,
    }),
  ).toEqual({ ok: false, error: "not-yet" });
});
