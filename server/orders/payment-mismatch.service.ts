/**
 * A card payment whose amount or currency is not the order's (docs/decisions/0040-payment-amount-rule.md):
 * the order is not marked paid; it is flagged for the staff with a status-history row (the status
 * stays) and the shop gets an e-mail. Flagging one session twice (redelivered or later events) does
 * nothing more.
 */
import { and, eq, exists, like, sql, type SQL } from "drizzle-orm";
import { formatMoney } from "#common/format.ts";
import { paymentMismatchNote } from "#common/order-history.ts";
import type { Db } from "#server/db/client.ts";
import { orders, orderStatusHistory } from "#server/db/schema.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { addOrderNote } from "./order.service";

export type PaymentMismatch = {
  orderId: string;
  provider: string;
  providerRef: string;
  amountCents: number;
  currency: string;
  now: Date;
  publicUrl: string;
};

/** True when the order was flagged now, false when this session had already flagged it. */
export async function flagPaymentMismatch(tx: Db, args: PaymentMismatch): Promise<boolean> {
  const note = paymentMismatchNote({ provider: args.provider, amountCents: args.amountCents, currency: args.currency, ref: args.providerRef });
  const order = await addOrderNote(tx, { orderId: args.orderId, note, now: args.now });
  if (!order) return false;
  const { shop } = await getSettings(tx, ["shop"]);
  // For the staff, in the shop's language: what came, what was due, and where to act.
  const paid = args.currency === "eur" ? formatMoney(args.amountCents, "it") : `${args.amountCents} ${args.currency.toUpperCase()} (unità minime)`;
  const due = formatMoney(order.totalCents, "it");
  await queueEmail(tx, {
    to: shop.email,
    subject: `Ordine ${order.number}: pagamento da verificare`,
    text: [
      `Per l'ordine ${order.number} è arrivato un pagamento con carta di ${paid}, ma l'ordine totalizza ${due}.`,
      "L'ordine NON è stato segnato come pagato e il cliente non ha ricevuto conferme di pagamento.",
      `Controlla la sessione ${args.providerRef} (${args.provider}) e rimborsa o contatta il cliente.`,
      "",
      `${args.publicUrl}/admin/ordini/${order.id}`,
    ].join("\n"),
    kind: "payment-mismatch",
    locale: "it",
    dedupeKey: `payment-mismatch:${args.providerRef}`,
  });
  return true;
}

/** For a query on `orders`: the order has a card payment flagged as not matching it. */
export function hasPaymentMismatch(db: Db): SQL<boolean> {
  const flags = db
    .select({ id: orderStatusHistory.id })
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orders.id), like(orderStatusHistory.note, "payment-mismatch:%")));
  return sql<boolean>`${exists(flags)}`.mapWith(Boolean);
}
