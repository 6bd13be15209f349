/**
 * The back office's after-sales part of an order page: the withdrawal statements as received, the
 * returns with their 14-day countdown, what each may do next, and the one entry for the staff's actions
 * (authorise, refuse, receive, refund, mark a transfer made, open a return for a faulty item), each
 * recorded in the audit log.
 */
import { z } from "zod";
import { isValidIban, normaliseIban } from "#common/iban.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import { parseEuroCents } from "#server/admin/product-admin.inputs.ts";
import type { Db } from "#server/db/client.ts";
import type { OrderMailLinks } from "#server/orders/order-emails.ts";
import type { PaymentProvider } from "#server/payments/payment-provider.ts";
import { exchangeOriginOf, listExchangesOfOrder, type ExchangeView } from "./exchanges.service";
import { listRefundsOfOrder, markRefundPaidBack, proposeRefund, refundReturn, type RefundProposal, type RefundView } from "./refunds.service";
import { authoriseReturn, listReturnsOfOrder, openFaultyReturn, receiveReturn, refuseReturn, type ReturnView } from "./returns.service";
import { daysLeft } from "./withdrawal";
import { listWithdrawals, type WithdrawalStatement } from "./withdrawal.service";

export type AdminReturn = ReturnView & {
  daysLeft: number | null;
  proposal: RefundProposal | null;
  refund: RefundView | null;
  exchanges: ExchangeView[];
};

export type AfterSalesDetail = {
  statements: WithdrawalStatement[];
  returns: AdminReturn[];
  /** This order is an exchange's replacement: the order (and return) it was made for. */
  exchangeOf: Awaited<ReturnType<typeof exchangeOriginOf>>;
};

export async function getAfterSalesDetail(db: Db, args: { orderId: string; now: Date }): Promise<AfterSalesDetail> {
  const statements = await listWithdrawals(db, [args.orderId]);
  const returns = await listReturnsOfOrder(db, args.orderId);
  const refunds = await listRefundsOfOrder(db, args.orderId);
  const exchanges = await listExchangesOfOrder(db, args.orderId);
  const detailed: AdminReturn[] = [];
  for (const row of returns) {
    const refund = refunds.find((candidate) => candidate.returnId === row.id) ?? null;
    const swapped = exchanges.filter((exchange) => exchange.returnId === row.id);
    const proposal = row.status === "received" ? await proposeRefund(db, row.id) : null;
    // The law's clock runs until the money has gone back; a return wholly exchanged has none to give back once received.
    const settled =
      row.status === "refused" ||
      refund?.status === "succeeded" ||
      refund?.status === "paid_back" ||
      (proposal !== null && proposal.lines.length === 0);
    detailed.push({
      ...row,
      daysLeft: settled ? null : daysLeft(row.refundDueAt, args.now),
      proposal,
      refund,
      exchanges: swapped,
    });
  }
  return { statements, returns: detailed, exchangeOf: await exchangeOriginOf(db, args.orderId) };
}

const uuid = z.uuid({ error: "afterSales.admin.errors.not-found" });
const reason = z.string().trim().max(500, { error: "afterSales.admin.errors.reason-required" });

export const AfterSalesAction = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("return-authorise"), returnId: uuid }),
  z.object({ intent: z.literal("return-refuse"), returnId: uuid, reason }),
  z.object({ intent: z.literal("return-receive"), returnId: uuid }),
  z.object({
    intent: z.literal("return-refund"),
    returnId: uuid,
    includeDelivery: z.literal("on").optional(),
    iban: z.string().trim().max(50).optional(),
  }),
  z.object({ intent: z.literal("refund-paid-back"), refundId: uuid }),
  z.object({ intent: z.literal("return-open-faulty"), iban: z.string().trim().max(50).optional() }),
]);
export type AfterSalesAction = z.infer<typeof AfterSalesAction>;

export type AfterSalesActionResult = { ok: true; done: string } | { ok: false; error: string };

type Context = { db: Db; actorUserId: string; now: Date; links: OrderMailLinks | null; provider: (name: string) => PaymentProvider };

/** Per-line fields of the forms: "{prefix}:{orderLineId}" = value. */
function perLine(fields: Record<string, string>, prefix: string): Map<string, string> {
  return new Map(
    Object.entries(fields)
      .filter(([name]) => name.startsWith(`${prefix}:`))
      .map(([name, value]) => [name.slice(prefix.length + 1), value.trim()]),
  );
}

const wholeNumber = (raw: string | undefined) =>
  raw !== undefined && /^\d{1,4}$/.test(raw) ? Number(raw) : raw === undefined || raw === "" ? 0 : -1;

/** Runs one staff action on the order's returns; `fields` are the form's, for the per-line values. */
export async function runAfterSalesAction(
  ctx: Context,
  orderId: string,
  action: AfterSalesAction,
  fields: Record<string, string>,
): Promise<AfterSalesActionResult> {
  const fail = (error: string): AfterSalesActionResult => ({ ok: false, error: `afterSales.admin.errors.${error}` });
  const audit = (what: string, details: Record<string, unknown>) =>
    recordAudit(ctx.db, { actorUserId: ctx.actorUserId, action: `order.${what}`, entity: "order", entityId: orderId, details });
  const belongs = async (returnId: string) => (await listReturnsOfOrder(ctx.db, orderId)).some((row) => row.id === returnId);
  if ("returnId" in action && !(await belongs(action.returnId))) return fail("not-found");

  switch (action.intent) {
    case "return-authorise": {
      const done = await authoriseReturn(ctx.db, { returnId: action.returnId, now: ctx.now, links: ctx.links });
      if (!done.ok) return fail(done.error);
      await audit("return-authorise", { returnId: action.returnId });
      return { ok: true, done: "authorised" };
    }
    case "return-refuse": {
      const done = await refuseReturn(ctx.db, { returnId: action.returnId, reason: action.reason, actorUserId: ctx.actorUserId, now: ctx.now });
      if (!done.ok) return fail(done.error);
      await audit("return-refuse", { returnId: action.returnId, reason: action.reason });
      return { ok: true, done: "refused" };
    }
    case "return-receive": {
      const restocked = perLine(fields, "restocked");
      const damaged = perLine(fields, "damaged");
      const reasons = perLine(fields, "damageReason");
      const lines = [...new Set([...restocked.keys(), ...damaged.keys()])].map((orderLineId) => ({
        orderLineId,
        restocked: wholeNumber(restocked.get(orderLineId)),
        damaged: wholeNumber(damaged.get(orderLineId)),
        damageReason: reasons.get(orderLineId)?.slice(0, 500) || null,
      }));
      const done = await receiveReturn(ctx.db, { returnId: action.returnId, lines, actorUserId: ctx.actorUserId, now: ctx.now, links: ctx.links });
      if (!done.ok) return fail(done.error);
      await audit("return-receive", { returnId: action.returnId, lines });
      return { ok: true, done: "received" };
    }
    case "return-refund": {
      const amounts: { orderLineId: string; amountCents: number }[] = [];
      for (const [orderLineId, raw] of perLine(fields, "amount")) {
        if (raw === "") continue;
        const cents = parseEuroCents(raw);
        if (!cents.ok) return fail("amount");
        amounts.push({ orderLineId, amountCents: cents.cents });
      }
      const done = await refundReturn(
        { db: ctx.db, provider: ctx.provider, links: ctx.links },
        {
          returnId: action.returnId,
          lines: amounts,
          includeDelivery: action.includeDelivery === "on",
          iban: action.iban || null,
          actorUserId: ctx.actorUserId,
          now: ctx.now,
        },
      );
      if (!done.ok) return fail(done.error);
      await audit("return-refund", { returnId: action.returnId, amountCents: done.amountCents, route: done.route });
      return { ok: true, done: "refunded" };
    }
    case "refund-paid-back": {
      const done = await markRefundPaidBack(ctx.db, { refundId: action.refundId, actorUserId: ctx.actorUserId, now: ctx.now, links: ctx.links });
      // Audited in its own transaction (refunds.service.ts), like the to-pay-back list's button.
      if (!done.ok) return fail("not-allowed");
      return { ok: true, done: "paid-back" };
    }
    case "return-open-faulty": {
      const lines = [...perLine(fields, "faulty")].map(([orderLineId, raw]) => ({ orderLineId, quantity: wholeNumber(raw) }));
      if (lines.some((line) => line.quantity < 0)) return fail("bad-quantities");
      const iban = action.iban ? normaliseIban(action.iban) : null;
      if (iban && !isValidIban(iban)) return fail("iban");
      const done = await openFaultyReturn(ctx.db, { orderId, lines, refundIban: iban, now: ctx.now });
      if (!done.ok) return fail(done.error);
      await audit("return-open-faulty", { returnId: done.returnId, lines });
      return { ok: true, done: "opened" };
    }
  }
}
