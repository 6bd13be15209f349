import { like } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { outboxEmails } from "#server/db/schema.ts";
import { afterSalesLinks, deliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { orderAccessToken } from "./order-access";
import { changeOrderStatus } from "./order.service";
import { createTestDb } from "#tests/db.ts";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

/** The order's mails by kind ("order-paid", ...), from their dedupe keys. */
async function mailsOf(db: Db, orderId: string) {
  const rows = await db
    .select()
    .from(outboxEmails)
    .where(like(outboxEmails.dedupeKey, `%:${orderId}`));
  return new Map(rows.map((mail) => [mail.kind, mail]));
}

function expectWithdrawalInformation(mail: typeof outboxEmails.$inferSelect | undefined, order: { orderId: string; orderNumber: number }) {
  expect(mail).toBeDefined();
  const text = mail!.textBody;
  expect(text).toContain("DIRITTO DI RECESSO");
  expect(text).toContain("Hai il diritto di recedere dal contratto, senza indicarne le ragioni, entro 14 giorni.");
  expect(text).toContain("MODULO DI RECESSO TIPO");
  expect(text).toContain(`Ordine n. ${order.orderNumber}`);
  expect(text).toContain("Bimbi Felici di Esposito Anna & C. s.a.s.");
}

/** The mail's link to the order's withdrawal function, with the order's own token. */
function expectWithdrawalLink(mail: typeof outboxEmails.$inferSelect | undefined, orderId: string) {
  const token = orderAccessToken(afterSalesLinks.secret, orderId);
  const url = `${afterSalesLinks.publicUrl}/ordine/${orderId}/recesso?t=${token}`;
  expect(mail!.textBody).toContain(`Recedi dal contratto (funzione di recesso online):\n${url}`);
  expect(mail!.htmlBody).toContain(url);
}

test("a cash-on-delivery order: the confirmation and the shipped mail carry the withdrawal information, the model form and the link", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db, { paymentMethod: "cash_on_delivery", stage: "preparing" });
  const shipped = await changeOrderStatus(db, { orderId: order.orderId, to: "shipped", actorUserId: null, now: new Date(), links: afterSalesLinks });
  expect(shipped.ok).toBe(true);
  const mails = await mailsOf(db, order.orderId);
  for (const kind of ["order-confirmation", "order-shipped"]) {
    expectWithdrawalInformation(mails.get(kind), order);
    expectWithdrawalLink(mails.get(kind), order.orderId);
  }
  expect(mails.has("order-paid")).toBe(false);
});

test("a card order: its confirmation is the paid mail, which carries the withdrawal information", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db);
  const mails = await mailsOf(db, order.orderId);
  expectWithdrawalInformation(mails.get("order-paid"), order);
  expectWithdrawalInformation(mails.get("order-shipped"), order);
});
