/**
 * Exchanges: the owner of `return_exchanges` (docs/decisions/0105-exchanges.md). A returned line may be
 * swapped for another variant of the same product. The replacement's units are taken from the shelf in
 * the transaction that opens the return; the one door that gives them back is releaseExchanges (the
 * return refused, or not sent back in time); receiving the return turns them into a replacement order
 * through createOrder, at no charge, ready to ship, with a mail to the customer.
 */
import { and, asc, eq, inArray, lt, ne } from "drizzle-orm";
import { exchangeNote } from "#common/order-history.ts";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, productColours, productVariants, returnExchanges, returns } from "#server/db/schema.ts";
import { createOrder } from "#server/orders/order-creation.ts";
import type { OrderMailLinks } from "#server/orders/order-emails.ts";
import { addOrderNote } from "#server/orders/order.service.ts";
import { giveBackStock, moveTakenStock, recordTakenStock, takeStock, type TakenStock } from "#server/stock/stock-ledger.ts";
import { queueExchangeShippedMail } from "./after-sales-emails";
import {
  exchangeHoldDays,
  isExchangeable,
  replacementOrderKey,
  type CheckedExchange,
  type ExchangeableLineFacts,
  type ExchangeOption,
} from "./exchange";

/**
 * The variants each exchangeable line may be swapped for: the same product's others not sold as a
 * pre-order, with their stock (the form shows a size sold out as such; confirming checks it again).
 */
export async function listExchangeOptions(
  db: Db,
  lines: readonly (ExchangeableLineFacts & { variantId: number | null })[],
): Promise<Map<string, ExchangeOption[]>> {
  const exchangeable = lines.filter(isExchangeable);
  const productIds = [...new Set(exchangeable.map((line) => line.productId!))];
  if (productIds.length === 0) return new Map();
  const variants = await db
    .select({
      productId: productVariants.productId,
      variantId: productVariants.id,
      sku: productVariants.sku,
      colour: productColours.colour,
      size: productVariants.size,
      stock: productVariants.stock,
    })
    .from(productVariants)
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(and(inArray(productVariants.productId, productIds), eq(productVariants.isPreorder, false)))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
  return new Map(
    exchangeable.map((line) => [
      line.id,
      variants
        .filter((variant) => variant.productId === line.productId && variant.variantId !== line.variantId)
        .map(({ productId: _productId, ...option }) => option),
    ]),
  );
}

/**
 * Takes the replacements' units, all or nothing (the ledger's conditional updates), before the return is
 * written: too few of any variant and nothing has changed.
 */
export async function takeExchangeStock(
  tx: Db,
  exchanges: readonly CheckedExchange[],
): Promise<{ ok: true; taken: TakenStock } | { ok: false; error: "exchange-unavailable" }> {
  const taken = await takeStock(
    tx,
    exchanges.map((exchange) => ({ variantId: exchange.option.variantId, quantity: exchange.quantity })),
  );
  return taken.ok ? { ok: true, taken: taken.taken } : { ok: false, error: "exchange-unavailable" };
}

/** The reserved exchanges of a return just opened, and the movements of the units taken for them. */
export async function recordExchanges(
  tx: Db,
  args: { returnId: string; orderId: string; exchanges: readonly CheckedExchange[]; taken: TakenStock; actorUserId: string | null; now: Date },
): Promise<void> {
  if (args.exchanges.length === 0) return;
  await tx.insert(returnExchanges).values(
    args.exchanges.map((exchange) => ({
      returnId: args.returnId,
      orderLineId: exchange.orderLineId,
      quantity: exchange.quantity,
      variantId: exchange.option.variantId,
      sku: exchange.option.sku,
      colour: exchange.option.colour,
      size: exchange.option.size,
      createdAt: args.now,
      updatedAt: args.now,
    })),
  );
  await recordTakenStock(tx, args.taken, { reason: "exchange-reserved", orderId: args.orderId, actorUserId: args.actorUserId, now: args.now });
}

/**
 * The one door that gives reserved units back: the return was refused, or its goods did not come in
 * time. Each reservation is released once (a conditional update); a note tells the order's history.
 */
export async function releaseExchanges(
  tx: Db,
  args: { returnId: string; orderId: string; returnNumber: number; actorUserId: string | null; now: Date },
): Promise<number> {
  const released = await tx
    .update(returnExchanges)
    .set({ status: "released", updatedAt: args.now })
    .where(and(eq(returnExchanges.returnId, args.returnId), eq(returnExchanges.status, "reserved")))
    .returning({ variantId: returnExchanges.variantId, quantity: returnExchanges.quantity });
  const units = released.flatMap((row) => (row.variantId === null ? [] : [{ variantId: row.variantId, quantity: row.quantity }]));
  if (released.length === 0) return 0;
  await giveBackStock(tx, units, { reason: "exchange-released", orderId: args.orderId, actorUserId: args.actorUserId, now: args.now });
  await addOrderNote(tx, {
    orderId: args.orderId,
    note: exchangeNote({ step: "exchange-released", returnNumber: args.returnNumber }),
    now: args.now,
  });
  return released.length;
}

/**
 * The return came in: its reserved exchanges become one replacement order, at no charge (the original
 * order paid for the goods), ready to ship to the original order's address. Once per return: the order's
 * idempotency key is the return's, and the reservations move to fulfilled conditionally.
 */
export async function fulfilExchanges(
  tx: Db,
  args: { returnId: string; orderId: string; returnNumber: number; actorUserId: string | null; now: Date; links: OrderMailLinks | null },
): Promise<{ orderId: string; number: number } | null> {
  const reserved = await tx
    .select()
    .from(returnExchanges)
    .where(and(eq(returnExchanges.returnId, args.returnId), eq(returnExchanges.status, "reserved")))
    .orderBy(asc(returnExchanges.id));
  if (reserved.length === 0) return null;
  const [original] = await tx.select().from(orders).where(eq(orders.id, args.orderId));
  const lines = await tx
    .select()
    .from(orderLines)
    .where(
      inArray(
        orderLines.id,
        reserved.map((row) => row.orderLineId),
      ),
    );
  const {
    id: _id,
    number: originalNumber,
    idempotencyKey: _key,
    status: _status,
    createdAt: _createdAt,
    updatedAt: _updatedAt,
    paidAt: _paidAt,
    paymentDueAt: _dueAt,
    carrier: _carrier,
    trackingNumber: _tracking,
    ...customer
  } = original!;
  const created = await createOrder(tx, {
    ...customer,
    idempotencyKey: replacementOrderKey(args.returnId),
    cartId: null,
    status: "preparing",
    // Nothing is charged: no invoice (the original's stands for the goods) and no takings (docs/decisions/0105-exchanges.md).
    invoiceKind: "none",
    onlinePaymentMethod: null,
    subtotalCents: 0,
    personalisationCents: 0,
    discountCents: 0,
    shippingCents: 0,
    paymentFeeCents: 0,
    totalCents: 0,
    giftListId: null,
    giftMessage: null,
    giverName: null,
    discountCodeId: null,
    giftCardCents: 0,
    loyaltyPointsRedeemed: 0,
    loyaltyDiscountCents: 0,
    estimatedDeliveryFrom: null,
    estimatedDeliveryTo: null,
    createdAt: args.now,
    lines: reserved.map((row) => {
      const line = lines.find((candidate) => candidate.id === row.orderLineId)!;
      return {
        productId: line.productId,
        variantId: row.variantId,
        sku: row.sku,
        name: line.name,
        colour: row.colour,
        size: row.size,
        quantity: row.quantity,
        listPriceCents: 0,
        unitPriceCents: 0,
        lineTotalCents: 0,
        vatRatePercent: line.vatRatePercent,
        isLoyaltyExcluded: true,
      };
    }),
    placed: {
      note: exchangeNote({ step: "exchange-of", returnNumber: args.returnNumber, orderNumber: originalNumber }),
      actorUserId: args.actorUserId,
    },
  });
  if (!created) return null;
  const fulfilled = await tx
    .update(returnExchanges)
    .set({ status: "fulfilled", replacementOrderId: created.id, updatedAt: args.now })
    .where(and(eq(returnExchanges.returnId, args.returnId), eq(returnExchanges.status, "reserved")))
    .returning({ variantId: returnExchanges.variantId, quantity: returnExchanges.quantity });
  await moveTakenStock(
    tx,
    fulfilled.flatMap((row) => (row.variantId === null ? [] : [{ variantId: row.variantId, quantity: row.quantity }])),
    { reason: "exchange-reserved", orderId: args.orderId, actorUserId: args.actorUserId, now: args.now },
    { reason: "exchange-order", orderId: created.id, actorUserId: args.actorUserId, now: args.now },
  );
  await addOrderNote(tx, {
    orderId: args.orderId,
    note: exchangeNote({ step: "exchange-sent", returnNumber: args.returnNumber, orderNumber: created.number }),
    now: args.now,
  });
  await queueExchangeShippedMail(tx, {
    order: { id: created.id, number: created.number, email: original!.email, locale: original!.locale },
    originalNumber,
    links: args.links,
  });
  return { orderId: created.id, number: created.number };
}

export type ExchangeView = {
  returnId: string;
  orderLineId: string;
  quantity: number;
  from: { sku: string; colour: string | null; size: string | null };
  to: { sku: string; colour: string | null; size: string | null };
  status: "reserved" | "released" | "fulfilled";
  replacement: { id: string; number: number } | null;
};

/** The exchanges of an order's returns, for the order page and the back office. */
export async function listExchangesOfOrder(db: Db, orderId: string): Promise<ExchangeView[]> {
  const rows = await db
    .select({
      exchange: returnExchanges,
      fromSku: orderLines.sku,
      fromColour: orderLines.colour,
      fromSize: orderLines.size,
      replacementNumber: orders.number,
    })
    .from(returnExchanges)
    .innerJoin(returns, eq(returns.id, returnExchanges.returnId))
    .innerJoin(orderLines, eq(orderLines.id, returnExchanges.orderLineId))
    .leftJoin(orders, eq(orders.id, returnExchanges.replacementOrderId))
    .where(eq(returns.orderId, orderId))
    .orderBy(asc(returns.number), asc(returnExchanges.id));
  return rows.map((row) => ({
    returnId: row.exchange.returnId,
    orderLineId: row.exchange.orderLineId,
    quantity: row.exchange.quantity,
    from: { sku: row.fromSku, colour: row.fromColour, size: row.fromSize },
    to: { sku: row.exchange.sku, colour: row.exchange.colour, size: row.exchange.size },
    status: row.exchange.status,
    replacement:
      row.exchange.replacementOrderId && row.replacementNumber ? { id: row.exchange.replacementOrderId, number: row.replacementNumber } : null,
  }));
}

/** Units of each order line swapped in returns not refused: no refund is proposed for them. */
export async function exchangedUnitsOfOrder(db: Db, orderId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ orderLineId: returnExchanges.orderLineId, quantity: returnExchanges.quantity })
    .from(returnExchanges)
    .innerJoin(returns, eq(returns.id, returnExchanges.returnId))
    .where(and(eq(returns.orderId, orderId), ne(returnExchanges.status, "released")));
  const units = new Map<string, number>();
  for (const row of rows) units.set(row.orderLineId, (units.get(row.orderLineId) ?? 0) + row.quantity);
  return units;
}

/** The original order (and return) a replacement order was made for; null for any other order. */
export async function exchangeOriginOf(db: Db, orderId: string): Promise<{ orderId: string; orderNumber: number; returnNumber: number } | null> {
  const [row] = await db
    .select({ orderId: orders.id, orderNumber: orders.number, returnNumber: returns.number })
    .from(returnExchanges)
    .innerJoin(returns, eq(returns.id, returnExchanges.returnId))
    .innerJoin(orders, eq(orders.id, returns.orderId))
    .where(eq(returnExchanges.replacementOrderId, orderId))
    .limit(1);
  return row ?? null;
}

/**
 * Reservations whose goods have not come back within exchangeHoldDays of the request go back on the
 * shelf; the return stays open and, if the goods still come, is refunded instead.
 */
export async function expireExchangeReservations(db: Db, now: Date): Promise<number> {
  const due = await db
    .selectDistinct({ returnId: returnExchanges.returnId })
    .from(returnExchanges)
    .where(and(eq(returnExchanges.status, "reserved"), lt(returnExchanges.createdAt, new Date(now.getTime() - exchangeHoldDays * 86_400_000))))
    .limit(200);
  let released = 0;
  for (const { returnId } of due) {
    released += await db.transaction(async (tx) => {
      const [row] = await tx.select().from(returns).where(eq(returns.id, returnId)).for("update");
      if (!row || (row.status !== "requested" && row.status !== "authorised")) return 0;
      return releaseExchanges(tx, { returnId: row.id, orderId: row.orderId, returnNumber: row.number, actorUserId: null, now });
    });
  }
  return released;
}

/** The order lines a return swaps (reserved or fulfilled): its refund leaves them out. */
export async function exchangedLinesOfReturn(db: Db, returnId: string): Promise<Set<string>> {
  const rows = await db
    .select({ orderLineId: returnExchanges.orderLineId })
    .from(returnExchanges)
    .where(and(eq(returnExchanges.returnId, returnId), ne(returnExchanges.status, "released")));
  return new Set(rows.map((row) => row.orderLineId));
}
