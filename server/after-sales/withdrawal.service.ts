/**
 * The consumer's withdrawal: the owner of `withdrawals`, whose rows are written once and never changed
 * (a trigger refuses it). A statement names the order, the person and the units; it opens a return
 * (returns.service.ts), notes the step in the order's history and queues the acknowledgement at once.
 * Who may withdraw: the holder of the order's link or the signed-in customer who placed it (for a
 * gift-list order: the buyer, never the list's owner). See docs/decisions/0051-withdrawal-period.md.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterSalesNote } from "#common/order-history.ts";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, orderStatusHistory, returns, withdrawals } from "#server/db/schema.ts";
import type { OrderMailLinks } from "#server/orders/order-emails.ts";
import type { PaymentMethod } from "#server/orders/order-methods.ts";
import { addOrderNote } from "#server/orders/order.service.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { queueWithdrawalAcknowledgement } from "./after-sales-emails";
import { checkExchangeChoices, isReplacementOrder, type CheckedExchange, type ExchangeOption, type ExchangeRefusal } from "./exchange";
import { listExchangeOptions, recordExchanges, takeExchangeStock } from "./exchanges.service";
import { openReturn } from "./returns.service";
import {
  checkWithdrawalLines,
  lineExclusion,
  refundDeadline,
  withdrawalWindow,
  withdrawnPerLine,
  type LineExclusion,
  type WithdrawalRefusal,
  type WithdrawalWindow,
} from "./withdrawal";
import type { WithdrawalForm } from "./withdrawal.inputs";

export type WithdrawalStatement = typeof withdrawals.$inferSelect;

export type WithdrawalOptions = {
  orderId: string;
  orderNumber: number;
  userId: string | null;
  customerName: string;
  email: string;
  paymentMethod: PaymentMethod;
  window: WithdrawalWindow;
  /** Money the shop took itself goes back by bank transfer: the form asks for an IBAN (unless every line is exchanged). */
  needsIban: boolean;
  lines: {
    id: string;
    sku: string;
    name: string;
    colour: string | null;
    size: string | null;
    quantity: number;
    left: number;
    exclusion: LineExclusion | null;
    /** The variants the line may be swapped for instead of a refund (docs/decisions/0105-exchanges.md). */
    exchangeTo: ExchangeOption[];
  }[];
  statements: (WithdrawalStatement & { returnNumber: number | null })[];
  withdrawalDays: number;
  /** An exchange's replacement order: nothing to withdraw from (docs/decisions/0105-exchanges.md). */
  isReplacement: boolean;
  /** Some unit can still be withdrawn, and the period allows it. */
  isOffered: boolean;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** When the order first moved to `status`, from its history. */
function firstMoveTo(history: readonly { toStatus: string; fromStatus: string | null; createdAt: Date }[], status: string): Date | null {
  return history.find((row) => row.toStatus === status && row.fromStatus !== status)?.createdAt ?? null;
}

/** What the withdrawal page shows; null when there is no such order. */
export async function getWithdrawalOptions(db: Db, args: { orderId: string; now: Date }): Promise<WithdrawalOptions | null> {
  if (!uuidPattern.test(args.orderId)) return null;
  const [order] = await db.select().from(orders).where(eq(orders.id, args.orderId));
  if (!order) return null;
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.sku), asc(orderLines.id));
  const history = await db
    .select({ toStatus: orderStatusHistory.toStatus, fromStatus: orderStatusHistory.fromStatus, createdAt: orderStatusHistory.createdAt })
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, order.id))
    .orderBy(asc(orderStatusHistory.id));
  const statements = await db
    .select({ statement: withdrawals, returnNumber: returns.number })
    .from(withdrawals)
    .leftJoin(returns, eq(returns.withdrawalId, withdrawals.id))
    .where(eq(withdrawals.orderId, order.id))
    .orderBy(asc(withdrawals.receivedAt));
  const { afterSales } = await getSettings(db, ["afterSales"]);
  const window = withdrawalWindow(
    {
      status: order.status,
      deliveryMethod: order.deliveryMethod,
      createdAt: order.createdAt,
      shippedAt: firstMoveTo(history, "shipped"),
      completedAt: firstMoveTo(history, "completed"),
    },
    afterSales,
    args.now,
  );
  const withdrawn = withdrawnPerLine(statements.map((row) => row.statement));
  const isReplacement = isReplacementOrder(order);
  const exchangeOptions = window.state === "open" && !isReplacement ? await listExchangeOptions(db, lines) : new Map<string, ExchangeOption[]>();
  const views = lines.map((line) => ({
    id: line.id,
    sku: line.sku,
    name: line.name,
    colour: line.colour,
    size: line.size,
    quantity: line.quantity,
    left: line.quantity - (withdrawn.get(line.id) ?? 0),
    exclusion: lineExclusion(line),
    exchangeTo: exchangeOptions.get(line.id) ?? [],
  }));
  return {
    orderId: order.id,
    orderNumber: order.number,
    userId: order.userId,
    customerName: `${order.firstName} ${order.lastName}`,
    email: order.email,
    paymentMethod: order.paymentMethod,
    window,
    // Money the shop took itself goes back by transfer; a gift card's share goes back on the card (decision 0097).
    needsIban: order.paymentMethod !== "card" && order.totalCents > order.giftCardCents,
    lines: views,
    statements: statements.map((row) => ({ ...row.statement, returnNumber: row.returnNumber })),
    withdrawalDays: afterSales.withdrawalDays,
    isReplacement,
    isOffered: !isReplacement && window.state === "open" && views.some((line) => line.exclusion === null && line.left > 0),
  };
}

export type SubmitWithdrawalError =
  | WithdrawalRefusal
  | ExchangeRefusal
  | "not-found"
  | "not-your-order"
  | "period-over"
  | "not-yet"
  | "already-received"
  | "iban-required"
  | "replacement-order";

/** The statement checked against the order as it is (the first step's check, and again on confirming). */
export function reviewWithdrawal(
  options: WithdrawalOptions,
  input: Pick<WithdrawalForm, "lines" | "iban" | "exchanges">,
): { ok: true; lines: { orderLineId: string; quantity: number }[]; exchanges: CheckedExchange[] } | { ok: false; error: SubmitWithdrawalError } {
  if (options.isReplacement) return { ok: false, error: "replacement-order" };
  if (options.window.state === "closed") return { ok: false, error: "period-over" };
  if (options.window.state === "not-yet") return { ok: false, error: "not-yet" };
  const checked = checkWithdrawalLines(options.lines, withdrawnPerLine(options.statements), input.lines);
  if (!checked.ok) return checked;
  const swapped = checkExchangeChoices(checked.lines, new Map(options.lines.map((line) => [line.id, line.exchangeTo])), input.exchanges ?? []);
  if (!swapped.ok) return swapped;
  // Exchanged units are not refunded: the IBAN is asked for only when some money goes back.
  const refunded = checked.lines.some((line) => !swapped.exchanges.some((exchange) => exchange.orderLineId === line.orderLineId));
  if (options.needsIban && refunded && !input.iban) return { ok: false, error: "iban-required" };
  return { ok: true, lines: checked.lines, exchanges: swapped.exchanges };
}

export type SubmitWithdrawalResult =
  { ok: true; withdrawalId: string; returnNumber: number; receivedAt: Date } | { ok: false; error: SubmitWithdrawalError };

/**
 * Receives a withdrawal statement, once: the order locked while its earlier statements are counted, so
 * two statements at once cannot withdraw more than was bought; the same form sent twice is refused.
 */
export async function submitWithdrawal(
  db: Db,
  args: {
    orderId: string;
    /** Who sends it: the holder of the order's link, or a signed-in customer. */
    access: { hasOrderLink: boolean; userId: string | null };
    input: WithdrawalForm;
    locale: "it" | "en";
    now: Date;
    links: OrderMailLinks | null;
  },
): Promise<SubmitWithdrawalResult> {
  return db.transaction(async (tx): Promise<SubmitWithdrawalResult> => {
    if (!uuidPattern.test(args.orderId)) return { ok: false, error: "not-found" };
    const [order] = await tx.select().from(orders).where(eq(orders.id, args.orderId)).for("update");
    if (!order) return { ok: false, error: "not-found" };
    if (!args.access.hasOrderLink && (args.access.userId === null || args.access.userId !== order.userId))
      return { ok: false, error: "not-your-order" };
    const [earlier] = await tx.select({ id: withdrawals.id }).from(withdrawals).where(eq(withdrawals.submissionKey, args.input.submissionKey));
    if (earlier) return { ok: false, error: "already-received" };
    const options = await getWithdrawalOptions(tx, { orderId: order.id, now: args.now });
    if (!options) return { ok: false, error: "not-found" };
    const checked = reviewWithdrawal(options, args.input);
    if (!checked.ok) return checked;
    // The replacements' units first: when the shelf has too few, nothing has been written yet.
    const reserved = await takeExchangeStock(tx, checked.exchanges);
    if (!reserved.ok) return reserved;
    const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id));

    const statementLines = checked.lines.map((entry) => {
      const line = lines.find((candidate) => candidate.id === entry.orderLineId)!;
      return { orderLineId: line.id, sku: line.sku, name: line.name, quantity: entry.quantity };
    });
    const [statement] = await tx
      .insert(withdrawals)
      .values({
        orderId: order.id,
        submissionKey: args.input.submissionKey,
        name: args.input.name,
        contactEmail: order.email,
        channel: "online-form",
        lines: statementLines,
        refundIban: options.needsIban ? args.input.iban : null,
        locale: args.locale,
        receivedAt: args.now,
      })
      .returning();
    const opened = await openReturn(tx, {
      orderId: order.id,
      withdrawalId: statement!.id,
      reason: "withdrawal",
      lines: checked.lines,
      refundDueAt: refundDeadline(statement!.receivedAt),
      refundIban: statement!.refundIban,
      now: args.now,
    });
    await recordExchanges(tx, {
      returnId: opened.id,
      orderId: order.id,
      exchanges: checked.exchanges,
      taken: reserved.taken,
      actorUserId: args.access.userId,
      now: args.now,
    });
    await addOrderNote(tx, { orderId: order.id, note: afterSalesNote("withdrawal-received", opened.number), now: args.now });
    await queueWithdrawalAcknowledgement(tx, {
      order: { id: order.id, number: order.number, email: order.email, locale: order.locale },
      withdrawal: { ...statement!, lines: statementLines },
      returnNumber: opened.number,
      links: args.links,
    });
    return { ok: true, withdrawalId: statement!.id, returnNumber: opened.number, receivedAt: statement!.receivedAt };
  });
}

/** The statements of these orders, for the back office and the customer's purchases. */
export async function listWithdrawals(db: Db, orderIds: readonly string[]): Promise<WithdrawalStatement[]> {
  if (orderIds.length === 0) return [];
  return db
    .select()
    .from(withdrawals)
    .where(and(inArray(withdrawals.orderId, [...orderIds])))
    .orderBy(asc(withdrawals.receivedAt));
}
