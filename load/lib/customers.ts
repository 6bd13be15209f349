/**
 * Customers as a browser without JavaScript drives the shop: pages, search, add to cart (form posts
 * answered with 303), checkout (303 to the order or to Stripe; 409 when the stock ran out). Every
 * answer is sorted: fine (2xx/3xx), refused as the rules say (409/422), unavailable (502-504 or nginx's
 * 429, the clean "try again" answers), or an error (anything else, a hang past the bound, a broken connection).
 */
import crypto from "node:crypto";
import type { PaymentMethod } from "#server/orders/order-methods.ts";
import type { Catalogue } from "./load-shop";
import { CookieJar } from "#tests/cookie-jar.ts";
import { RequestFailed, type Answer, type HttpClient } from "./http-client";

export type Outcome = "fine" | "refused" | "unavailable" | "error" | "hang";

export type Tally = {
  requests: number;
  fine: number;
  refused: number;
  unavailable: number;
  errors: number;
  hangs: number;
  /** A few of the errors, for the report. */
  samples: string[];
  /** A few of the "try again" answers (when, what, which status), for a part that expects none. */
  unavailableSamples: string[];
  /** Slowest answer seen, and slowest "try again" answer, in ms. */
  slowestMs: number;
  slowestUnavailableMs: number;
};

export function newTally(): Tally {
  return {
    requests: 0,
    fine: 0,
    refused: 0,
    unavailable: 0,
    errors: 0,
    hangs: 0,
    samples: [],
    unavailableSamples: [],
    slowestMs: 0,
    slowestUnavailableMs: 0,
  };
}

/** One checkout form as the page sends it: its idempotency key stays the same when the customer retries. */
export type CheckoutAttempt = {
  key: string;
  form: Record<string, string>;
  jar: CookieJar;
  /** "placed": a success answer (the order's page or Stripe); "refused": out of stock; "open": no answer yet that says either. */
  state: "placed" | "refused" | "open";
  orderId: string | null;
  /** Where the success answer sent the customer, when it is the shop's order page. */
  orderPage?: string;
};

export type Shopper = {
  client: HttpClient;
  catalogue: Catalogue;
  tally: Tally;
  /** Bound on each answer. */
  timeoutMs: number;
  /** Every checkout tried, whatever its outcome. */
  checkouts: CheckoutAttempt[];
  /** The `Host` of the public address, when the client talks to one process directly. */
  host?: string;
  /** performance.now() past which no new step starts (set by runCustomers). */
  endAt?: number;
};

const searchTerms = ["passeggino", "body", "biberon", "seggiolino", "culla", "bagnetto", "ciuccio"];
const pick = <T>(values: readonly T[]): T => values[crypto.randomInt(values.length)]!;

function sortAnswer(tally: Tally, path: string, answer: Answer | RequestFailed): Outcome {
  tally.requests += 1;
  const note = (what: string) => {
    if (tally.samples.length < 8) tally.samples.push(`${path}: ${what}`);
  };
  if (answer instanceof RequestFailed) {
    tally.slowestMs = Math.max(tally.slowestMs, answer.ms);
    if (answer.kind === "timeout") {
      tally.hangs += 1;
      note(answer.message);
      return "hang";
    }
    tally.errors += 1;
    note(answer.message);
    return "error";
  }
  tally.slowestMs = Math.max(tally.slowestMs, answer.ms);
  if (answer.status >= 200 && answer.status < 400) {
    tally.fine += 1;
    return "fine";
  }
  if (answer.status === 409 || answer.status === 422) {
    tally.refused += 1;
    return "refused";
  }
  // The clean failure: the "try again" page or JSON (server/http/unavailable.ts), from a process or nginx; or
  // nginx's rate limit (429, Retry-After) when customers retry a failing shop faster than people would.
  if ([429, 502, 503, 504].includes(answer.status) && /service-unavailable|too-many-requests|Riprova|Try again/.test(answer.body)) {
    tally.unavailable += 1;
    tally.slowestUnavailableMs = Math.max(tally.slowestUnavailableMs, answer.ms);
    if (tally.unavailableSamples.length < 5) {
      tally.unavailableSamples.push(`${new Date().toISOString()} ${path}: ${answer.status} after ${Math.round(answer.ms)} ms`);
    }
    return "unavailable";
  }
  tally.errors += 1;
  note(`status ${answer.status} ${answer.body.slice(0, 120).replace(/\s+/g, " ")}`);
  return "error";
}

/** One request, sorted into the tally; the answer too, when there was one. */
async function visit(shopper: Shopper, path: string, init: { form?: Record<string, string>; jar?: CookieJar } = {}) {
  const headers: Record<string, string> = {};
  if (shopper.host) headers.Host = shopper.host;
  const cookie = init.jar?.header();
  if (cookie) headers.Cookie = cookie;
  // Browsers send Origin with every form post.
  if (init.form) headers.Origin = shopper.host ? `http://${shopper.host}` : shopper.client.baseUrl;
  let answer: Answer | RequestFailed;
  try {
    answer = await shopper.client.request(path, { form: init.form, headers, timeoutMs: shopper.timeoutMs });
  } catch (error) {
    if (!(error instanceof RequestFailed)) throw error;
    answer = error;
  }
  const outcome = sortAnswer(shopper.tally, path, answer);
  if (!(answer instanceof RequestFailed)) init.jar?.take(answer.setCookies);
  return { outcome, answer: answer instanceof RequestFailed ? null : answer };
}

const timeIsUp = (shopper: Shopper) => shopper.endAt !== undefined && performance.now() > shopper.endAt;

export async function browse(shopper: Shopper) {
  const { catalogue } = shopper;
  const pages = [
    "/",
    Math.random() < 0.7 ? `/categoria/${encodeURIComponent(pick(catalogue.categorySlugs))}` : "/shop?page=2",
    `/product/${pick(catalogue.productIds)}`,
    `/shop?search=${encodeURIComponent(pick(searchTerms))}`,
  ];
  for (const page of pages) {
    if (timeIsUp(shopper)) return;
    await visit(shopper, page);
  }
}

/** Adds the lines through the cart's form; false when an add was not answered with its redirect. */
export async function fillCart(shopper: Shopper, jar: CookieJar, variantIds: number[]): Promise<boolean> {
  for (const variantId of variantIds) {
    const { answer } = await visit(shopper, "/cart", {
      jar,
      form: { intent: "add", variantId: String(variantId), quantity: "1", redirectTo: "/cart" },
    });
    if (answer?.status !== 303) return false;
  }
  return true;
}

function checkoutForm(paymentMethod: PaymentMethod): Record<string, string> {
  const person = {
    idempotencyKey: crypto.randomUUID(),
    firstName: "Giulia",
    lastName: "Esposito",
    email: `cliente.${crypto.randomBytes(4).toString("hex")}@example.it`,
    phone: "+39 333 765 4321",
    acceptTerms: "on",
  };
  if (paymentMethod === "in_shop") return { ...person, deliveryMethod: "collection", paymentMethod };
  return {
    ...person,
    deliveryMethod: "standard",
    paymentMethod,
    street: "Via Toledo",
    houseNumber: "120",
    postcode: "80134",
    city: "Napoli",
    province: "NA",
  };
}

/** Sends (or sends again) the checkout form: the answer says placed, refused or still open. */
export async function submitCheckout(shopper: Shopper, attempt: CheckoutAttempt): Promise<void> {
  const { answer } = await visit(shopper, "/checkout", { jar: attempt.jar, form: attempt.form });
  if (answer?.status === 303 && answer.location) {
    attempt.state = "placed";
    attempt.orderId = /\/ordine\/([0-9a-f-]{36})/.exec(answer.location)?.[1] ?? null;
    if (answer.location.startsWith("/")) attempt.orderPage = answer.location;
  } else if (answer?.status === 409) {
    attempt.state = "refused";
  }
}

/** A checkout, not yet sent, of the cart in `jar`: counted among the shopper's checkouts from now on. */
export function openCheckout(shopper: Shopper, jar: CookieJar, paymentMethod: PaymentMethod): CheckoutAttempt {
  const form = checkoutForm(paymentMethod);
  const attempt: CheckoutAttempt = { key: form.idempotencyKey!, form, jar, state: "open", orderId: null };
  shopper.checkouts.push(attempt);
  return attempt;
}

/** A new checkout of a cart holding `variantIds`, with its own cookies; null when the cart could not be filled. */
export async function prepareCheckout(shopper: Shopper, variantIds: number[], paymentMethod: PaymentMethod): Promise<CheckoutAttempt | null> {
  const jar = new CookieJar();
  if (!(await fillCart(shopper, jar, variantIds))) return null;
  return openCheckout(shopper, jar, paymentMethod);
}

/** What a customer does in one visit: looks around, and one time in two buys two items, often one of the scarce ones. */
export async function shopOnce(shopper: Shopper) {
  await browse(shopper);
  if (Math.random() < 0.5 || timeIsUp(shopper)) return;
  const roll = Math.random();
  const paymentMethod = roll < 0.1 ? "card" : roll < 0.55 ? "bank_transfer" : "in_shop";
  const first = Math.random() < 0.6 ? pick(shopper.catalogue.hot) : pick(shopper.catalogue.plentiful);
  const attempt = await prepareCheckout(shopper, [first, pick(shopper.catalogue.plentiful)], paymentMethod);
  if (!attempt || timeIsUp(shopper)) return;
  await visit(shopper, "/checkout", { jar: attempt.jar });
  if (timeIsUp(shopper)) return;
  await submitCheckout(shopper, attempt);
  if (attempt.state === "placed" && attempt.orderPage) await visit(shopper, attempt.orderPage, { jar: attempt.jar });
}

/** `connections` customers shopping until `durationMs` is over. */
export async function runCustomers(shopper: Shopper, connections: number, durationMs: number) {
  shopper.endAt = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!timeIsUp(shopper)) await shopOnce(shopper);
    }),
  );
  shopper.endAt = undefined;
}

/** Customers whose checkout got no clear answer try again with the same form (same key), like pressing "Riprova". */
export async function retryOpenCheckouts(shopper: Shopper, times = 3) {
  for (let round = 0; round < times; round += 1) {
    const open = shopper.checkouts.filter((attempt) => attempt.state === "open");
    if (open.length === 0) return;
    await Promise.all(open.map((attempt) => submitCheckout(shopper, attempt)));
  }
}
