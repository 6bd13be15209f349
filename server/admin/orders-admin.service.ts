/**
 * The back office's orders: the list with its filters, the detail, and the staff's actions along the
 * workflow. The moves themselves are the orders module's (server/orders/order.service.ts); this file
 * wraps each one in a transaction with its audit row, so a move and its record stand or fall together.
 */
import { and, count, desc, eq, ilike, inArray, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Locale } from "#common/locale.ts";
import type { DeliveryMethod, PaymentMethod } from "#server/orders/order-methods.ts";
import type { Db } from "#server/db/client.ts";
import { pageOf } from "#server/db/paging.ts";
import { deliveryMethod, orders, payments, paymentMethod } from "#server/db/schema.ts";
import type { OrderMailLinks } from "#server/orders/order-emails.ts";
import { nextStatuses, orderStatuses, type OrderStatus } from "#server/orders/order-status.ts";
import { hasPaymentMismatch } from "#server/orders/payment-mismatch.service.ts";
import { cancelOrder, changeOrderStatus, getOrderView, markOrderPaid, type OrderView } from "#server/orders/order.service.ts";
import type { PaymentProvider } from "#server/payments/payment-provider.ts";
import { queueOrderCancelledMail, queueRefundMadeMail } from "#server/after-sales/after-sales-emails.ts";
import { hasReturnRefunds } from "#server/after-sales/refunds.service.ts";
import { issueCreditNote } from "#server/invoices/invoice.service.ts";
import { carrierChoices, carrierNameOf } from "#common/carrier-tracking.ts";
import { recordAudit } from "./audit.service";

export const adminOrdersPageSize = 25;

export const AdminOrderFilters = z.object({
  status: z.enum(orderStatuses).or(z.literal("")).catch(""),
  payment: z.enum(paymentMethod.enumValues).or(z.literal("")).catch(""),
  delivery: z.enum(deliveryMethod.enumValues).or(z.literal("")).catch(""),
  q: z.string().trim().max(200).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type AdminOrderFilters = z.infer<typeof AdminOrderFilters>;

export function parseAdminOrderFilters(params: URLSearchParams): AdminOrderFilters {
  return AdminOrderFilters.parse({
    status: params.get("status") ?? "",
    payment: params.get("payment") ?? "",
    delivery: params.get("delivery") ?? "",
    q: params.get("q") ?? "",
    page: params.get("page") ?? 1,
  });
}

export type AdminOrderRow = {
  id: string;
  number: number;
  createdAt: string;
  status: OrderStatus;
  customer: string;
  email: string;
  paymentMethod: PaymentMethod;
  deliveryMethod: DeliveryMethod;
  totalCents: number;
  isPaid: boolean;
  /** A card payment came for another amount or currency: the staff must settle it. */
  hasPaymentMismatch: boolean;
};

/** Whose orders a list shows besides the filters: one customer's account, or the gifts bought from one gift list. */
export type AdminOrderScope = { userId?: string; giftListId?: string };

/** Newest first. `q` is an order number ("1042", "#1042") or part of an e-mail address. */
export async function listAdminOrders(
  db: Db,
  filters: AdminOrderFilters,
  scope: AdminOrderScope = {},
): Promise<{ rows: AdminOrderRow[]; total: number; page: number; pageCount: number }> {
  const conditions: SQL[] = [];
  if (scope.userId) conditions.push(eq(orders.userId, scope.userId));
  if (scope.giftListId) conditions.push(eq(orders.giftListId, scope.giftListId));
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.payment) conditions.push(eq(orders.paymentMethod, filters.payment));
  if (filters.delivery) conditions.push(eq(orders.deliveryMethod, filters.delivery));
  const q = filters.q.replace(/^#/, "");
  if (q) {
    const byEmail = ilike(orders.email, `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    conditions.push(/^\d{1,9}$/.test(q) ? or(eq(orders.number, Number(q)), byEmail)! : byEmail);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ value: total } = { value: 0 }] = await db.select({ value: count() }).from(orders).where(where);
  const { page, pageCount, offset } = pageOf(filters.page, total, adminOrdersPageSize);
  const rows = await db
    .select({
      id: orders.id,
      number: orders.number,
      createdAt: orders.createdAt,
      status: orders.status,
      firstName: orders.firstName,
      lastName: orders.lastName,
      email: orders.email,
      paymentMethod: orders.paymentMethod,
      deliveryMethod: orders.deliveryMethod,
      totalCents: orders.totalCents,
      paidAt: orders.paidAt,
      hasPaymentMismatch: hasPaymentMismatch(db),
    })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.number))
    .limit(adminOrdersPageSize)
    .offset(offset);
  return {
    rows: rows.map(({ firstName, lastName, paidAt, createdAt, ...row }) => ({
      ...row,
      createdAt: createdAt.toISOString(),
      customer: `${firstName} ${lastName}`,
      isPaid: paidAt !== null,
    })),
    total,
    page,
    pageCount,
  };
}

export type AdminOrderDetail = {
  order: OrderView;
  /** Statuses the workflow allows next, without the ones that have their own button (paid, cancelled, refunded). */
  moves: OrderStatus[];
  canMarkPaid: boolean;
  canCancel: boolean;
  canRefund: boolean;
  /** The card payment a refund goes back to; null for money the shop took itself. */
  cardPaymentRef: string | null;
  refundedCents: number;
};

/** Money the shop takes itself is recorded while the order waits for it or is on its way (paid on handover). */
const markableStatuses: ReadonlySet<OrderStatus> = new Set(["awaiting_payment", "preparing", "shipped", "ready_for_collection"]);

const ownButtons: ReadonlySet<OrderStatus> = new Set(["paid", "cancelled", "refunded"]);

export async function getAdminOrder(db: Db, args: { orderId: string; locale: Locale }): Promise<AdminOrderDetail | null> {
  const order = await getOrderView(db, args);
  if (!order) return null;
  const facts = { deliveryMethod: order.delivery.method, paymentMethod: order.payment.method };
  const next = nextStatuses(order.status, facts);
  const card = await cardPaymentOf(db, order.id);
  const [refunded] = await db
    .select({ cents: payments.refundedCents })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.status, "refunded")));
  return {
    order,
    moves: next.filter((status) => !ownButtons.has(status)),
    canMarkPaid: order.payment.method !== "card" && order.payment.paidAt === null && markableStatuses.has(order.status),
    canCancel: next.includes("cancelled"),
    canRefund: next.includes("refunded") && order.payment.paidAt !== null && !(await hasReturnRefunds(db, order.id)),
    cardPaymentRef: card?.providerRef ?? null,
    refundedCents: refunded?.cents ?? 0,
  };
}

async function cardPaymentOf(db: Db, orderId: string) {
  const [row] = await db
    .select({ id: payments.id, provider: payments.provider, providerRef: payments.providerRef, amountCents: payments.amountCents })
    .from(payments)
    .where(
      and(
        eq(payments.orderId, orderId),
        inArray(payments.provider, ["stripe", "test", "scalapay"]),
        inArray(payments.status, ["succeeded", "refunded"]),
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row && row.providerRef ? { ...row, providerRef: row.providerRef } : null;
}

const shortText = (max: number) => z.string().trim().max(max, { error: "admin.errors.tooLong" });

export const AdminOrderAction = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("status"),
    to: z.enum(orderStatuses, { error: "admin.orders.errors.transition-not-allowed" }),
    /** A known courier, or "other" with its name in `carrierName`. */
    carrier: z.enum(carrierChoices, { error: "admin.orders.errors.carrier-required" }).optional(),
    carrierName: shortText(80).optional(),
    trackingNumber: shortText(80).optional(),
    note: shortText(500).optional(),
  }),
  z.object({ intent: z.literal("mark-paid") }),
  z.object({ intent: z.literal("cancel"), note: shortText(500).optional() }),
  z.object({ intent: z.literal("refund"), note: shortText(500).optional() }),
]);
export type AdminOrderAction = z.infer<typeof AdminOrderAction>;

export type AdminOrderActionResult =
  | { ok: true; done: "status" | "mark-paid" | "cancel" | "refund" }
  | {
      ok: false;
      error:
        | "admin.orders.errors.transition-not-allowed"
        | "admin.orders.errors.not-found"
        | "admin.orders.errors.carrier-required"
        | "admin.orders.errors.not-paid"
        | "admin.orders.errors.refund-failed"
        | "admin.errors.tooLong";
    };

/** What the after-sales e-mails need of an order. */
async function mailOrderOf(db: Db, orderId: string) {
  const [row] = await db
    .select({ id: orders.id, number: orders.number, email: orders.email, locale: orders.locale })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row!;
}

/** `provider(name)`: the provider the payment was made with (`payments.provider`). */
type ActionContext = { db: Db; actorUserId: string; now: Date; links: OrderMailLinks | null; provider: (name: string) => PaymentProvider };

/**
 * Runs one staff action on an order. Shipping asks for a carrier (the customer's "shipped" e-mail names
 * it). A card refund asks the provider first (idempotent per payment and amount, so a retry after a
 * failure here refunds once), then records the refund with the move to "refunded".
 */
export async function runAdminOrderAction(ctx: ActionContext, orderId: string, action: AdminOrderAction): Promise<AdminOrderActionResult> {
  const [order] = await ctx.db
    .select({
      status: orders.status,
      number: orders.number,
      paidAt: orders.paidAt,
      paymentMethod: orders.paymentMethod,
      deliveryMethod: orders.deliveryMethod,
      totalCents: orders.totalCents,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return { ok: false, error: "admin.orders.errors.not-found" };
  const notAllowed = { ok: false, error: "admin.orders.errors.transition-not-allowed" } as const;
  const audit = (tx: Db, what: string, details: Record<string, unknown>) =>
    recordAudit(tx, {
      actorUserId: ctx.actorUserId,
      action: `order.${what}`,
      entity: "order",
      entityId: orderId,
      details: { number: order.number, from: order.status, ...details },
    });

  switch (action.intent) {
    case "status": {
      if (ownButtons.has(action.to)) return notAllowed;
      const carrier = action.carrier ? carrierNameOf(action.carrier, action.carrierName) : null;
      if (action.to === "shipped" && !carrier) return { ok: false, error: "admin.orders.errors.carrier-required" };
      return ctx.db.transaction(async (tx) => {
        const moved = await changeOrderStatus(tx, {
          orderId,
          to: action.to,
          actorUserId: ctx.actorUserId,
          note: action.note || undefined,
          carrier: carrier ?? undefined,
          trackingNumber: action.trackingNumber,
          now: ctx.now,
          links: ctx.links,
        });
        if (!moved.ok) return notAllowed;
        await audit(tx, "status", {
          to: action.to,
          ...(carrier && { carrier, trackingNumber: action.trackingNumber ?? null }),
        });
        return { ok: true, done: "status" } as const;
      });
    }
    case "mark-paid": {
      if (order.paymentMethod === "card" || order.paidAt || !markableStatuses.has(order.status)) return notAllowed;
      return ctx.db.transaction(async (tx) => {
        const paid = await markOrderPaid(tx, {
          orderId,
          provider: order.paymentMethod,
          providerRef: null,
          amountCents: order.totalCents,
          now: ctx.now,
          actorUserId: ctx.actorUserId,
          links: ctx.links,
        });
        if (!paid.changed) return notAllowed;
        await audit(tx, "mark-paid", { method: order.paymentMethod, amountCents: order.totalCents, status: paid.status });
        return { ok: true, done: "mark-paid" } as const;
      });
    }
    case "cancel":
      return ctx.db.transaction(async (tx) => {
        const cancelled = await cancelOrder(tx, { orderId, now: ctx.now, actorUserId: ctx.actorUserId, note: action.note || "cancelled-by-shop" });
        if (!cancelled.changed) return notAllowed;
        await queueOrderCancelledMail(tx, { order: await mailOrderOf(tx, orderId), links: ctx.links });
        await audit(tx, "cancel", { note: action.note ?? null });
        return { ok: true, done: "cancel" } as const;
      });
    case "refund": {
      if (!nextStatuses(order.status, order).includes("refunded")) return notAllowed;
      if (!order.paidAt) return { ok: false, error: "admin.orders.errors.not-paid" };
      // Part of the money went back with a return: the rest goes back through the returns, never twice.
      if (await hasReturnRefunds(ctx.db, orderId)) return notAllowed;
      const card = await cardPaymentOf(ctx.db, orderId);
      let refundRef: string | null = null;
      if (card) {
        try {
          refundRef = (await ctx.provider(card.provider).refund(card.providerRef, card.amountCents)).refundRef;
        } catch {
          return { ok: false, error: "admin.orders.errors.refund-failed" };
        }
      }
      return ctx.db.transaction(async (tx) => {
        const method = card ? "card" : order.paymentMethod;
        const moved = await changeOrderStatus(tx, {
          orderId,
          to: "refunded",
          actorUserId: ctx.actorUserId,
          note: `refund:${method}${refundRef ? `:${refundRef}` : ""}`,
          now: ctx.now,
          links: ctx.links,
        });
        if (!moved.ok) return notAllowed;
        // An invoiced order's money back is credited whole (returns' partial refunds refuse this path).
        const creditNote = await issueCreditNote(tx, {
          orderId,
          refund: "whole",
          sourceKey: `order-refund:${orderId}`,
          actorUserId: ctx.actorUserId,
          now: ctx.now,
        });
        if (!creditNote.ok && creditNote.error !== "not-invoiced") throw new Error(`credit note for order ${orderId} refused: ${creditNote.error}`);
        const refundedCents = card?.amountCents ?? order.totalCents;
        const paymentMatch = card ? eq(payments.id, card.id) : and(eq(payments.orderId, orderId), eq(payments.status, "succeeded"));
        await tx
          .update(payments)
          .set({ status: "refunded", refundedCents, updatedAt: ctx.now })
          .where(and(paymentMatch, eq(payments.orderId, orderId)));
        // The customer hears of it as of a return's refund: the same mail, once per order.
        await queueRefundMadeMail(tx, {
          order: await mailOrderOf(tx, orderId),
          refundKey: `order:${orderId}`,
          amountCents: refundedCents,
          route: card ? "card" : "recorded",
          links: ctx.links,
        });
        await audit(tx, "refund", { method, amountCents: refundedCents, refundRef, note: action.note ?? null });
        return { ok: true, done: "refund" } as const;
      });
    }
  }
}
