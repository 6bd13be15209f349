/**
 * Scalapay's online API (v2) behind the PaymentProvider interface: the only file that talks to Scalapay.
 * An order made with POST /v2/orders is a "session" (its token the ref); the customer authorizes it on
 * Scalapay's page, then the shop captures it (POST /v2/payments/capture) once it checked the amount.
 * SCALAPAY_API_URL points at the sandbox or, in tests, at a local server of the same protocol.
 */
import { z } from "zod";
import type { Env } from "#server/env.ts";
import { centsToDecimalText } from "#server/money.ts";
import type { PaymentProvider, ProviderSessionState } from "./payment-provider";

/** A customer waits on the checkout while the order is made: 10 s, as for Stripe's two tries. */
const timeoutMs = 10_000;

/** Scalapay's amounts: a decimal text and an upper-case currency ("56.80", "EUR"). */
const ScalapayAmount = z.object({ amount: z.union([z.string(), z.number()]), currency: z.string() });

const CreatedOrder = z.object({ token: z.string().min(1), checkoutUrl: z.url(), expires: z.string().optional() });

/** GET /v2/payments/{token}: only what the shop reads; Scalapay adds more. */
const PaymentDetails = z.object({
  token: z.string(),
  status: z.string(),
  captureStatus: z.string().optional(),
  totalAmount: ScalapayAmount,
  checkoutUrl: z.string().optional(),
  orderDetails: z.object({ merchantReference: z.string().optional() }).passthrough().optional(),
});

const RefundAnswer = z.object({ refundToken: z.string().min(1) });

/** An error answer of Scalapay's, kept with its status so the caller can tell "already captured" from a failure. */
export class ScalapayError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`Scalapay answered ${status}: ${body.slice(0, 300)}`);
  }
}

/** "56.80" -> 5680; anything that is not a plain two-decimal amount -> NaN (never equal to an order total). */
export function scalapayAmountToCents(amount: string | number): number {
  const text = typeof amount === "number" ? amount.toFixed(2) : amount.trim();
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

const amountOf = (cents: number) => ({ amount: centsToDecimalText(cents), currency: "EUR" });

/**
 * Scalapay's statuses as the shop's session states. "authorized": the customer said yes, the money is
 * the shop's once it captures. "charged"/"captured": captured. Declined, voided or expired: no money.
 */
function stateOf(details: z.infer<typeof PaymentDetails>): ProviderSessionState {
  const status = details.status.toLowerCase();
  const captured = status === "charged" || status === "captured" || details.captureStatus?.toLowerCase() === "captured";
  const refunded = status === "refunded" || status === "partially_refunded";
  const authorized = !captured && (status === "authorized" || status === "approved");
  const closed = ["declined", "voided", "expired", "cancelled", "canceled", "failed"].includes(status);
  return {
    status: captured || refunded || authorized ? "complete" : closed ? "expired" : "open",
    isPaid: captured || refunded,
    isAuthorized: authorized,
    isProcessing: false,
    hasFailed: false,
    amountCents: scalapayAmountToCents(details.totalAmount.amount),
    currency: details.totalAmount.currency.toLowerCase(),
    orderId: null,
    url: !closed && !captured && !authorized && details.checkoutUrl ? details.checkoutUrl : null,
  };
}

export function takesScalapayPayments(env: Pick<Env, "SCALAPAY_API_KEY">): boolean {
  return Boolean(env.SCALAPAY_API_KEY);
}

export function createScalapayProvider(env: Pick<Env, "SCALAPAY_API_KEY" | "SCALAPAY_API_URL">): PaymentProvider {
  const base = env.SCALAPAY_API_URL.replace(/\/$/, "");
  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    if (!env.SCALAPAY_API_KEY) throw new Error("SCALAPAY_API_KEY is not set");
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${env.SCALAPAY_API_KEY}`,
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) throw new ScalapayError(response.status, text);
    return text ? (JSON.parse(text) as unknown) : {};
  }
  const details = async (ref: string) => PaymentDetails.parse(await call("GET", `/v2/payments/${encodeURIComponent(ref)}`));

  return {
    name: "scalapay",
    async createSession(args) {
      const consumer = args.consumer;
      const created = CreatedOrder.parse(
        await call("POST", "/v2/orders", {
          totalAmount: amountOf(args.totalCents),
          consumer: {
            givenNames: consumer?.givenNames ?? "",
            surname: consumer?.surname ?? "",
            email: args.email,
            phoneNumber: consumer?.phone ?? "",
          },
          ...(consumer?.shipping
            ? {
                shipping: {
                  name: `${consumer.givenNames} ${consumer.surname}`.trim(),
                  line1: consumer.shipping.line1,
                  suburb: consumer.shipping.city,
                  postcode: consumer.shipping.postcode,
                  countryCode: consumer.shipping.countryCode,
                  phoneNumber: consumer.phone,
                },
              }
            : {}),
          items: args.lines.map((line) => ({
            name: line.name,
            category: "baby",
            sku: line.name.slice(0, 64),
            quantity: line.quantity,
            price: amountOf(line.unitAmountCents),
          })),
          merchant: { redirectConfirmUrl: args.successUrl, redirectCancelUrl: args.cancelUrl },
          merchantReference: String(args.orderNumber),
          // Scalapay's own page stops taking the order when the shop stops waiting for it.
          orderExpiryMilliseconds: Math.max(60_000, args.expiresAt.getTime() - Date.now()),
          type: "online",
          product: "pay-in-3",
        }),
      );
      return { ref: created.token, url: created.checkoutUrl, expiresAt: args.expiresAt };
    },
    async retrieveSession(ref) {
      return stateOf(await details(ref));
    },
    async capture(ref, merchantReference) {
      try {
        await call("POST", "/v2/payments/capture", { token: ref, merchantReference });
      } catch (error) {
        // A second capture (a reload, a double click, the job meanwhile) is refused: captured is what we wanted.
        if (!(error instanceof ScalapayError) || error.status >= 500 || !stateOf(await details(ref)).isPaid) throw error;
      }
    },
    async expireSession(ref) {
      // An order not yet authorized expires at Scalapay by itself; an authorization the shop will not take is voided.
      const state = stateOf(await details(ref));
      if (state.isAuthorized) await call("POST", `/v2/payments/${encodeURIComponent(ref)}/void`, {});
    },
    async refund(ref, amountCents, idempotencyKey) {
      const answer = RefundAnswer.parse(
        await call("POST", `/v2/payments/${encodeURIComponent(ref)}/refund`, {
          refundAmount: amountOf(amountCents),
          // One refund per merchant refund reference: a retry after a lost answer is the same refund.
          merchantReference: ref,
          merchantRefundReference: idempotencyKey ?? `refund:${ref}:${amountCents}`,
        }),
      );
      return { refundRef: answer.refundToken };
    },
  };
}
