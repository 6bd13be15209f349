import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { outboxEmails, rateLimits } from "#server/db/schema.ts";
import { afterSalesLinks, deliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { createTestDb } from "#tests/db.ts";
import { orderLinkRules, requestOrderLink } from "./order-link.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-11-20T10:00:00Z");

async function linkMails(db: Db) {
  return db.select().from(outboxEmails).where(eq(outboxEmails.kind, "order-link"));
}

function ask(db: Db, raw: Record<string, string>, clientIp = "203.0.113.7", at = now) {
  return requestOrderLink(db, { raw, clientIp, now: at, links: afterSalesLinks });
}

test("the order's number and e-mail (any case, with 'n.'): its link goes to the order's e-mail, with the withdrawal function", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db, { email: "Giulia.Esposito@example.it" });
  const answer = await ask(db, { orderNumber: ` n. ${order.orderNumber} `, email: "giulia.esposito@EXAMPLE.it" });
  expect(answer).toEqual({ ok: true });
  const [mail] = await linkMails(db);
  expect(mail!.toAddress).toBe("giulia.esposito@example.it");
  expect(mail!.subject).toContain(`Il link al tuo ordine n. ${order.orderNumber}`);
  expect(mail!.textBody).toContain(`${afterSalesLinks.publicUrl}/ordine/${order.orderId}/recesso?t=`);
  expect(mail!.textBody).toContain("Recedi dal contratto");
});

test("a number and e-mail that do not match: the same answer, and no mail to anyone", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db, { email: "giulia@example.it" });
  const other = await ask(db, { orderNumber: String(order.orderNumber), email: "someone.else@example.it" });
  const unknown = await ask(db, { orderNumber: "999999", email: "giulia@example.it" });
  const matching = await ask(db, { orderNumber: String(order.orderNumber), email: "giulia@example.it" });
  expect(other).toEqual(matching);
  expect(unknown).toEqual(matching);
  expect((await linkMails(db)).map((mail) => mail.toAddress)).toEqual(["giulia@example.it"]);
});

test("a malformed number or e-mail: its field's message, nothing counted or sent", async () => {
  const db = await openDb();
  const answer = await ask(db, { orderNumber: "12a4", email: "giulia@" });
  expect(answer).toEqual({ ok: false, errors: { orderNumber: "orderLookup.errors.orderNumber", email: "orderLookup.errors.email" } });
  expect(await ask(db, {})).toMatchObject({ ok: false, errors: { orderNumber: "orderLookup.errors.orderNumber" } });
  expect(await linkMails(db)).toEqual([]);
  expect(await db.select().from(rateLimits)).toEqual([]);
});

test("too many requests for one e-mail: refused with the time to wait, even for the right pair; after the window it works again", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db, { email: "giulia@example.it" });
  const pair = { orderNumber: String(order.orderNumber), email: "giulia@example.it" };
  // From different addresses: the e-mail's own limit.
  for (let attempt = 0; attempt < orderLinkRules.perEmail.max; attempt++) expect(await ask(db, pair, `198.51.100.${attempt}`)).toEqual({ ok: true });
  const refused = await ask(db, pair, "198.51.100.99");
  expect(refused).toMatchObject({ ok: false, errors: { form: "orderLookup.errors.tooMany" } });
  expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThan(0);
  expect(await linkMails(db)).toHaveLength(orderLinkRules.perEmail.max);
  const later = new Date(now.getTime() + orderLinkRules.perEmail.windowMs + 1000);
  expect(await ask(db, pair, "198.51.100.100", later)).toEqual({ ok: true });
});

test("too many requests from one address, for many e-mails: refused whatever the pair", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db, { email: "giulia@example.it" });
  for (let attempt = 0; attempt < orderLinkRules.perIp.max; attempt++)
    expect(await ask(db, { orderNumber: String(1000 + attempt), email: `guess${attempt}@example.it` })).toEqual({ ok: true });
  const refused = await ask(db, { orderNumber: String(order.orderNumber), email: "giulia@example.it" });
  expect(refused).toMatchObject({ ok: false, errors: { form: "orderLookup.errors.tooMany" } });
  expect(await linkMails(db)).toEqual([]);
});
