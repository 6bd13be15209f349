/**
 * The boundary between the shop and whoever takes card payments: Stripe Checkout when
 * STRIPE_SECRET_KEY is set, otherwise the shop's own clearly labelled test-payment page where allowed
 * (server/env.ts, cardPaymentProviderOf), otherwise nobody: the card method is then not offered.
 * Everything after this boundary (payment.service.ts) is the same for both.
 */
import type { Locale } from "#common/locale.ts";
import type { OnlinePaymentMethod } from "#common/online-payment-methods.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { cardPaymentProviderOf } from "#server/env.ts";
import { createScalapayProvider } from "./scalapay";
import { createStripeProvider } from "./stripe";
import { createTestPaymentProvider } from "./test-payment";

export type PaymentProviderName = "stripe" | "test" | "none" | "scalapay";

export type PaymentSession = { ref: string; url: string; expiresAt: Date };

export type CreateSessionArgs = {
  orderId: string;
  orderNumber: number;
  email: string;
  locale: Locale;
  lines: { name: string; unitAmountCents: number; quantity: number }[];
  totalCents: number;
  /** The one way to pay the customer chose at checkout: the provider's page offers only that. */
  method: OnlinePaymentMethod;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  /** The same key gives the same session (a double click, a retried request). */
  idempotencyKey: string;
  /** Who pays and where the goods go, for providers that ask (Scalapay); Stripe asks on its own page. */
  consumer?: {
    givenNames: string;
    surname: string;
    phone: string;
    shipping: { line1: string; city: string; postcode: string; countryCode: string } | null;
  };
};

export type ProviderSessionState = {
  status: "open" | "complete" | "expired";
  isPaid: boolean;
  /** The customer said yes, the money is the shop's once it captures (Scalapay): checked, then captured. */
  isAuthorized?: boolean;
  /** Completed by the customer, the money not confirmed yet (SEPA Direct Debit, some PayPal): wait for the provider's word. */
  isProcessing: boolean;
  /** Completed by the customer, then refused by the provider (a debit bounced): no money will come. */
  hasFailed: boolean;
  amountCents: number;
  /** Lower-case ISO code, as Stripe writes it ("eur"). */
  currency: string;
  orderId: string | null;
  /** Where the customer pays while the session is open. */
  url: string | null;
};

export type PaymentProvider = {
  name: PaymentProviderName;
  createSession(args: CreateSessionArgs): Promise<PaymentSession>;
  retrieveSession(ref: string): Promise<ProviderSessionState>;
  /** Closes an open session so it can no longer be paid; already closed sessions are left as they are. */
  expireSession(ref: string): Promise<void>;
  /**
   * Gives `amountCents` of the session's payment back. The same `idempotencyKey` refunds once however
   * often it is sent (a retry after a timeout); without one, the key is the session and the amount.
   */
  refund(ref: string, amountCents: number, idempotencyKey?: string): Promise<{ refundRef: string }>;
  /** Takes an authorized payment (providers that authorize first); a second capture of the same payment is a no-op. */
  capture?(ref: string, merchantReference: string): Promise<void>;
};

const providers = new WeakMap<object, PaymentProvider>();

/** Whether anybody takes cards here (Stripe keys, or the labelled test page): otherwise card methods are not offered. */
export function takesCardPayments(services: Pick<ShopServices, "env">): boolean {
  return cardPaymentProviderOf(services.env) !== "none";
}

/** One provider per services object (the Stripe client keeps its connections). */
export function paymentProviderOf(services: Pick<ShopServices, "db" | "env" | "publicUrl">): PaymentProvider {
  let provider = providers.get(services);
  if (!provider) {
    const name = cardPaymentProviderOf(services.env);
    provider =
      name === "stripe"
        ? createStripeProvider(services.env)
        : name === "test"
          ? createTestPaymentProvider(services.db, services.publicUrl)
          : noCardPayments;

    providers.set(services, provider);
  }
  return provider;
}

const scalapayProviders = new WeakMap<object, PaymentProvider>();

/** Scalapay, paid directly at Scalapay (decision 0104), whatever takes the cards. */
export function scalapayProviderOf(services: Pick<ShopServices, "env">): PaymentProvider {
  let provider = scalapayProviders.get(services);
  if (!provider) {
    provider = createScalapayProvider(services.env);
    scalapayProviders.set(services, provider);
  }
  return provider;
}

/** The provider that takes an order paid online this way. */
export function paymentProviderForMethod(
  services: Pick<ShopServices, "db" | "env" | "publicUrl">,
  method: OnlinePaymentMethod | null,
): PaymentProvider {
  return method === "scalapay" ? scalapayProviderOf(services) : paymentProviderOf(services);
}

/** The provider a payment row was made with (its `provider` column): refunds go back there. */
export function paymentProviderNamed(services: Pick<ShopServices, "db" | "env" | "publicUrl">, name: string): PaymentProvider {
  return name === "scalapay" ? scalapayProviderOf(services) : paymentProviderOf(services);
}

/** No card payments configured: nothing can start or be paid; a session made earlier is left to the staff. */
const noCardPayments: PaymentProvider = {
  name: "none",
  createSession: () => Promise.reject(new Error("card payments are off: no STRIPE_SECRET_KEY, and ALLOW_TEST_PAYMENTS is not set")),
  retrieveSession: () => Promise.reject(new Error("card payments are off")),
  expireSession: () => Promise.resolve(),
  refund: () => Promise.reject(new Error("card payments are off")),
};
