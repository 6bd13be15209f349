import { asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { giftCardMovements, giftCards, orders, outboxEmails, refunds } from "#server/db/schema.ts";
import { issueGiftCard } from "#server/gift-cards/gift-card.service.ts";
import type { PaymentProvider } from "#server/payments/payment-provider.ts";
import { createTestPaymentProvider } from "#server/payments/test-payment.ts";
import { afterSalesLinks, deliveredOrder, receivedReturn } from "#tests/fixtures/after-sales.fixtures.ts";
import { testPublicUrl } from "#tests/fixtures/checkout.fixtures.ts";
import { createTestDb } from "#tests/db.ts";
import { listRefundsToPayBack, refundReturn } from "./refunds.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

/** The test provider, recording what each refund asks of the card payment. */
function recordingServices(db: Db) {
  const provider = createTestPaymentProvider(db, testPublicUrl);
  const asked: number[] = [];
  const recording: PaymentProvider = {
    ...provider,
    async refund(ref, amountCents, idempotencyKey) {
      asked.push(amountCents);
      return provider.refund(ref, amountCents, idempotencyKey);
    },
  };
  return { services: { db, provider: () => recording, links: afterSalesLinks }, asked };
}

async function cardState(db: Db, cardId: number) {
  const [card] = await db.select({ balanceCents: giftCards.balanceCents }).from(giftCards).where(eq(giftCards.id, cardId));
  const movements = await db
    .select({ kind: giftCardMovements.kind, amountCents: giftCardMovements.amountCents })
    .from(giftCardMovements)
    .where(eq(giftCardMovements.giftCardId, cardId))
    .orderBy(asc(giftCardMovements.id));
  return { balanceCents: card!.balanceCents, movements: movements.map((row) => `${row.kind} ${row.amountCents}`) };
}

const mailTexts = async (db: Db) =>
  (await db.select({ text: outboxEmails.textBody }).from(outboxEmails).where(eq(outboxEmails.kind, "refund-made"))).map((row) => row.text);

test("part paid with a gift card: a return goes back to the card payment first, the card gets its share last, once", async () => {
  const db = await openDb();
  const card = await issueGiftCard(db, { origin: "counter", amountCents: 2000, now: new Date() });
  const order = await deliveredOrder(db, { giftCardCode: card.code });
  const [placed] = await db.select().from(orders).where(eq(orders.id, order.orderId));
  expect(placed).toMatchObject({ giftCardCents: 2000, status: "completed" });
  const total = placed!.totalCents;
  const { services, asked } = recordingServices(db);

  // The blanket back: 25 € within what the card payment paid, all of it to the card payment.
  const blanketBack = await receivedReturn(db, order, [{ orderLineId: order.blanket.id, quantity: 1 }]);
  expect(
    await refundReturn(services, {
      returnId: blanketBack,
      lines: [{ orderLineId: order.blanket.id, amountCents: 2500 }],
      includeDelivery: false,
      actorUserId: null,
      now: new Date(),
    }),
  ).toMatchObject({ ok: true, route: "card", amountCents: 2500 });
  expect(asked).toEqual([2500]);
  expect(await cardState(db, card.id)).toEqual({ balanceCents: 0, movements: ["issue 2000", "spend -2000"] });

  // The rest with the delivery: the card payment gets what is left of its own, the gift card its 20 €.
  // The personalised towel cannot be withdrawn: it comes back as faulty, with the bibs.
  const restBack = await receivedReturn(
    db,
    order,
    [
      { orderLineId: order.bib.id, quantity: 2 },
      { orderLineId: order.towel.id, quantity: 1 },
    ],
    { faulty: true },
  );
  const rest = await refundReturn(services, {
    returnId: restBack,
    lines: [
      { orderLineId: order.bib.id, amountCents: 2000 },
      { orderLineId: order.towel.id, amountCents: 1500 },
    ],
    includeDelivery: true,
    actorUserId: null,
    now: new Date(),
  });
  expect(rest).toMatchObject({ ok: true, route: "card", amountCents: total - 2500 });
  expect(asked).toEqual([2500, total - 2500 - 2000]);
  // Given back once: the order's move to refunded does not give the card its share again.
  expect(await cardState(db, card.id)).toEqual({ balanceCents: 2000, movements: ["issue 2000", "spend -2000", "refund 2000"] });
  const [after] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.orderId));
  expect(after!.status).toBe("refunded");
  const rows = await db.select({ amountCents: refunds.amountCents, giftCardCents: refunds.giftCardCents, status: refunds.status }).from(refunds);
  expect(rows.sort((a, b) => a.amountCents - b.amountCents)).toEqual(
    [
      { amountCents: 2500, giftCardCents: 0, status: "succeeded" },
      { amountCents: total - 2500, giftCardCents: 2000, status: "succeeded" },
    ].sort((a, b) => a.amountCents - b.amountCents),
  );
  const texts = await mailTexts(db);
  expect(texts.some((text) => /20,00\s€ sulla carta regalo/.test(text))).toBe(true);
  expect(texts.some((text) => text.includes("sulla carta con cui hai pagato"))).toBe(true);
});

test("paid wholly with a gift card: a refund goes back on the card at once, no IBAN, no provider; a refund kept short keeps the card short", async () => {
  const db = await openDb();
  const card = await issueGiftCard(db, { origin: "counter", amountCents: 20_000, now: new Date() });
  const order = await deliveredOrder(db, { giftCardCode: card.code, paymentMethod: "cash_on_delivery" });
  const [placed] = await db.select().from(orders).where(eq(orders.id, order.orderId));
  const total = placed!.totalCents;
  expect(placed!.giftCardCents).toBe(total);
  const { services, asked } = recordingServices(db);

  const blanketBack = await receivedReturn(db, order, [{ orderLineId: order.blanket.id, quantity: 1 }]);
  expect(
    await refundReturn(services, {
      returnId: blanketBack,
      lines: [{ orderLineId: order.blanket.id, amountCents: 2500 }],
      includeDelivery: false,
      actorUserId: null,
      now: new Date(),
    }),
  ).toMatchObject({ ok: true, route: "gift_card", amountCents: 2500 });
  expect(await cardState(db, card.id)).toMatchObject({ balanceCents: 20_000 - total + 2500 });
  expect(await db.select({ status: refunds.status, route: refunds.route }).from(refunds)).toEqual([{ status: "succeeded", route: "gift_card" }]);
  expect(await listRefundsToPayBack(db)).toEqual([]);
  expect(await mailTexts(db)).toEqual([expect.stringMatching(/25,00\s€ sulla carta regalo/)]);

  // The rest back, 5 € kept for a stained towel: the card gets what was refunded, not the whole rest of its share.
  // The personalised towel cannot be withdrawn: it comes back as faulty, with the bibs.
  const restBack = await receivedReturn(
    db,
    order,
    [
      { orderLineId: order.bib.id, quantity: 2 },
      { orderLineId: order.towel.id, quantity: 1 },
    ],
    { faulty: true },
  );
  expect(
    await refundReturn(services, {
      returnId: restBack,
      lines: [
        { orderLineId: order.bib.id, amountCents: 2000 },
        { orderLineId: order.towel.id, amountCents: 1000 },
      ],
      includeDelivery: true,
      actorUserId: null,
      now: new Date(),
    }),
  ).toMatchObject({ ok: true, route: "gift_card", amountCents: 3000 + placed!.shippingCents });
  expect(asked).toEqual([]);
  // Short by the 5 € kept and what is not refunded with the goods (the cash-on-delivery fee), nothing more.
  expect(await cardState(db, card.id)).toMatchObject({ balanceCents: 20_000 - total + 2500 + 3000 + placed!.shippingCents });
  const [after] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.orderId));
  expect(after!.status).toBe("refunded");
});
