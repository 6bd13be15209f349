/**
 * The labelled test-payment provider, used when no Stripe key is configured: its "hosted page" is
 * /pagamento-di-prova/{ref} on the shop itself and no money moves. Its sessions are the shop's own
 * `payments` rows (provider "test"); the page's buttons change them here, on the provider's side,
 * and then go through the same service path as a Stripe webhook.
 */
import crypto from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { orders, payments } from "#server/db/schema.ts";
import type { PaymentProvider } from "./payment-provider";

export const testPaymentPath = "/pagamento-di-prova";

export function createTestPaymentProvider(db: Db, publicUrl: string): PaymentProvider {
  const rowOf = async (ref: string) => {
    const [row] = await db
      .select({
        orderId: payments.orderId,
        status: payments.status,
        amountCents: payments.amountCents,
        expiresAt: payments.expiresAt,
        locale: orders.locale,
      })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(eq(payments.provider, "test"), eq(payments.providerRef, ref)));
    if (!row) throw new Error(`test payment session ${ref} not found`);
    return row;
  };
  const urlOf = (ref: string, locale: Locale) => `${publicUrl}${localizedHref(`${testPaymentPath}/${ref}`, locale)}`;
  return {
    name: "test",
    async createSession(args) {
      // Same key, same session: the service records it once (providerRef is unique).
      const ref = `test_${crypto.createHash("sha256").update(args.idempotencyKey).digest("hex").slice(0, 24)}`;
      return { ref, url: urlOf(ref, args.locale), expiresAt: args.expiresAt };
    },
    async retrieveSession(ref) {
      const row = await rowOf(ref);
      const isPaid = row.status === "succeeded" || row.status === "refunded";
      const isOpen = row.status === "pending" && (row.expiresAt === null || row.expiresAt > new Date());
      return {
        status: isPaid ? "complete" : isOpen ? "open" : "expired",
        isPaid,
        // The test page settles at once, whatever method it stands in for.
        isProcessing: false,
        hasFailed: false,
        amountCents: row.amountCents,
        currency: "eur",
        orderId: row.orderId,
        url: isOpen ? urlOf(ref, row.locale === "en" ? "en" : "it") : null,
      };
    },
    async expireSession(ref) {
      await db
        .update(payments)
        .set({ status: "expired", updatedAt: new Date() })
        .where(and(eq(payments.provider, "test"), eq(payments.providerRef, ref), eq(payments.status, "pending")));
    },
    async refund(ref, amountCents, idempotencyKey) {
      const row = await rowOf(ref);
      if (row.status !== "succeeded" && row.status !== "refunded") throw new Error(`test payment ${ref} was not paid`);
      return { refundRef: `test_refund_${ref.slice(5)}_${amountCents}${idempotencyKey ? `_${idempotencyKey.slice(-8)}` : ""}` };
    },
  };
}

/**
 * The customer pressed "Pay" or "Fail" on the test page: the provider's side of the session
 * changes (once, while it is open). Returns false when the session was no longer open.
 */
export async function recordTestPaymentOutcome(db: Db, args: { ref: string; outcome: "paid" | "failed"; now: Date }): Promise<boolean> {
  const changed = await db
    .update(payments)
    .set({ status: args.outcome === "paid" ? "succeeded" : "failed", updatedAt: args.now })
    .where(and(eq(payments.provider, "test"), eq(payments.providerRef, args.ref), eq(payments.status, "pending"), gt(payments.expiresAt, args.now)))
    .returning({ id: payments.id });
  return changed.length > 0;
}
