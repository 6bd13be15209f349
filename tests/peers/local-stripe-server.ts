/**
 * A Stripe-compatible HTTP server on 127.0.0.1 for tests (never the network). The unmodified Stripe
 * SDK talks to it through STRIPE_API_URL: it speaks the same form-encoded requests, Bearer keys,
 * Idempotency-Key replays and error shapes for the calls the shop makes:
 *
 *   POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id (expand[]=payment_intent),
 *   POST /v1/checkout/sessions/:id/expire, POST /v1/refunds
 *
 * and a hosted "checkout page" (GET /checkout/:id, buttons posting to /checkout/:id/pay|pay-later|cancel).
 * Paying or expiring a session sends a REAL signed webhook (Stripe-Signature made with the webhook
 * secret) to `webhookUrl`, like Stripe does. A method that confirms later (SEPA, some PayPal) completes
 * the session "unpaid" with its PaymentIntent processing, then succeeds or fails with
 * checkout.session.async_payment_succeeded / _failed. Tests also replay, reorder or forge deliveries.
 * Test-only: production code never imports it.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { signStripeWebhookPayload } from "#server/payments/stripe.ts";

export type LocalStripeSession = {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid";
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  locale: string | null;
  expires_at: number;
  created: number;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  payment_intent: string | null;
  /** What `allowed_payment_method_types` asked for (Stripe answers the types the session offers). */
  payment_method_types: string[];
  livemode: false;
  /** Kept for tests; Stripe returns line items from a separate endpoint. */
  line_items_sent: { name: string; unit_amount: number; quantity: number; currency: string }[];
};

export type RecordedRequest = { method: string; path: string; idempotencyKey: string | null; body: Record<string, unknown> };
export type WebhookDelivery = { eventId: string; type: string; status: number };

export type LocalStripeServer = {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Where signed events go; settable once the shop's address is known. */
  webhookUrl: string | null;
  sessions: Map<string, LocalStripeSession>;
  requests: RecordedRequest[];
  deliveries: WebhookDelivery[];
  /** Milliseconds every API answer waits before it is sent (0: at once); settable to make Stripe slow. */
  responseDelayMs: number;
  /** The customer pays: the session completes and checkout.session.completed is delivered. */
  pay: (sessionId: string) => Promise<WebhookDelivery | null>;
  /** The session expires (as Stripe does at expires_at) and checkout.session.expired is delivered. */
  expire: (sessionId: string) => Promise<WebhookDelivery | null>;
  /** The customer pays with a method that confirms later: the session completes unpaid, its payment processing; checkout.session.completed is delivered. */
  payLater: (sessionId: string, options?: { deliver?: boolean }) => Promise<WebhookDelivery | null>;
  /** The processing payment succeeds (or fails): the session changes and async_payment_succeeded (or _failed) is delivered. */
  settleLater: (sessionId: string, outcome: "succeeded" | "failed", options?: { deliver?: boolean }) => Promise<WebhookDelivery | null>;
  /** A signed event for the session as it is now (not delivered). */
  buildEvent: (type: string, sessionId: string) => { id: string; payload: string; signature: string };
  /** Posts a payload with a signature (a valid one, a forged one, none). */
  deliver: (payload: string, signature: string | null) => Promise<number>;
  close: () => Promise<void>;
};

export async function startLocalStripeServer(options: { webhookUrl?: string; webhookSecret?: string } = {}): Promise<LocalStripeServer> {
  const secretKey = `sk_test_local_${crypto.randomBytes(8).toString("hex")}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${crypto.randomBytes(16).toString("hex")}`;
  const sessions = new Map<string, LocalStripeSession>();
  /** PaymentIntent statuses by id ("processing", "succeeded", "requires_payment_method"). */
  const intentStatuses = new Map<string, string>();
  const idempotent = new Map<string, { bodyHash: string; status: number; response: unknown }>();
  const requests: RecordedRequest[] = [];
  const deliveries: WebhookDelivery[] = [];
  let baseUrl = "";

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      send(res, 500, { error: { type: "api_error", message: (error as Error).message } });
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", baseUrl);
    const raw = await readBody(req);
    const method = req.method ?? "GET";

    // The hosted checkout page, as the customer's browser sees it.
    const page = /^\/checkout\/([^/]+)(?:\/(pay|pay-later|cancel))?$/.exec(url.pathname);
    if (page) return hostedPage(res, method, decodeURIComponent(page[1]!), page[2] as "pay" | "pay-later" | "cancel" | undefined);

    if (!url.pathname.startsWith("/v1/")) return sendSlowly(res, 404, stripeError("invalid_request_error", "Unrecognized request URL"));
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return sendSlowly(res, 401, stripeError("invalid_request_error", "Invalid API Key provided"));
    }
    // The SDK sends a GET's parameters (expand) in the query string.
    const body = parseStripeForm(method === "GET" ? url.search.slice(1) : raw);
    const idempotencyKey = headerOf(req, "idempotency-key");
    requests.push({ method, path: url.pathname, idempotencyKey, body });

    if (method === "POST" && idempotencyKey) {
      const bodyHash = crypto.createHash("sha256").update(`${url.pathname}\n${raw}`).digest("hex");
      const earlier = idempotent.get(idempotencyKey);
      if (earlier) {
        if (earlier.bodyHash !== bodyHash) {
          return sendSlowly(
            res,
            400,
            stripeError("idempotency_error", "Keys for idempotent requests can only be used with the same parameters they were first used with."),
          );
        }
        res.setHeader("Idempotent-Replayed", "true");
        return sendSlowly(res, earlier.status, earlier.response);
      }
      const [status, response] = route(method, url.pathname, body);
      if (status < 500) idempotent.set(idempotencyKey, { bodyHash, status, response });
      return sendSlowly(res, status, response);
    }
    const [status, response] = route(method, url.pathname, body);
    return sendSlowly(res, status, response);
  }

  /** The API answers after `responseDelayMs`, the work already done (as a slow Stripe would: a client that gives up still made the session). */
  async function sendSlowly(res: http.ServerResponse, status: number, body: unknown) {
    if (api.responseDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, api.responseDelayMs));
    send(res, status, body);
  }

  function route(method: string, path: string, body: Record<string, unknown>): [number, unknown] {
    if (method === "POST" && path === "/v1/checkout/sessions") return createSession(body);
    const one = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (one) {
      const session = sessionNow(decodeURIComponent(one[1]!));
      if (!session) return [404, stripeError("invalid_request_error", `No such checkout.session: '${one[1]}'`, "resource_missing")];
      if (method === "GET" && !one[2]) {
        const expand = Array.isArray(body.expand) ? body.expand : [];
        const intent = session.payment_intent;
        return [
          200,
          expand.includes("payment_intent") && intent
            ? { ...session, payment_intent: { id: intent, object: "payment_intent", status: intentStatuses.get(intent) ?? "succeeded" } }
            : session,
        ];
      }
      if (method === "POST" && one[2]) {
        if (session.status !== "open") {
          return [
            400,
            stripeError(
              "invalid_request_error",
              `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
            ),
          ];
        }
        session.status = "expired";
        session.url = null;
        return [200, session];
      }
    }
    if (method === "POST" && path === "/v1/refunds") {
      const paymentIntent = textOf(body.payment_intent);
      const session = [...sessions.values()].find((candidate) => candidate.payment_intent === paymentIntent);
      if (!session) return [404, stripeError("invalid_request_error", `No such payment_intent: '${paymentIntent}'`, "resource_missing")];
      const amount = body.amount === undefined ? session.amount_total : Number(body.amount);
      if (!Number.isInteger(amount) || amount <= 0 || amount > session.amount_total) {
        return [400, stripeError("invalid_request_error", "Refund amount is greater than the charge amount.")];
      }
      return [
        200,
        { id: `re_${randomId()}`, object: "refund", amount, currency: session.currency, payment_intent: paymentIntent, status: "succeeded" },
      ];
    }
    return [404, stripeError("invalid_request_error", `Unrecognized request URL (${method}: ${path})`)];
  }

  function createSession(body: Record<string, unknown>): [number, unknown] {
    const now = Math.floor(Date.now() / 1000);
    const lineItems = Array.isArray(body.line_items) ? (body.line_items as Record<string, unknown>[]) : [];
    if (body.mode !== "payment") return [400, stripeError("invalid_request_error", "Missing required param: mode.", undefined, "mode")];
    if (typeof body.success_url !== "string")
      return [400, stripeError("invalid_request_error", "Missing required param: success_url.", undefined, "success_url")];
    if (lineItems.length === 0) return [400, stripeError("invalid_request_error", "Missing required param: line_items.", undefined, "line_items")];
    const lines = [];
    for (const item of lineItems) {
      const price = (item.price_data ?? {}) as Record<string, unknown>;
      const unitAmount = Number(price.unit_amount);
      const quantity = Number(item.quantity);
      if (!Number.isInteger(unitAmount) || unitAmount < 0) {
        return [400, stripeError("invalid_request_error", "Invalid integer: unit_amount", undefined, "line_items[0][price_data][unit_amount]")];
      }
      if (!Number.isInteger(quantity) || quantity < 1)
        return [400, stripeError("invalid_request_error", "Invalid quantity", undefined, "line_items[0][quantity]")];
      const product = (price.product_data ?? {}) as Record<string, unknown>;
      lines.push({ name: textOf(product.name), unit_amount: unitAmount, quantity, currency: textOf(price.currency) });
    }
    const expiresAt = body.expires_at === undefined ? now + 24 * 3600 : Number(body.expires_at);
    if (!Number.isInteger(expiresAt) || expiresAt < now + 30 * 60 - 10 || expiresAt > now + 24 * 3600 + 10) {
      return [
        400,
        stripeError(
          "invalid_request_error",
          "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
          undefined,
          "expires_at",
        ),
      ];
    }
    const amount = lines.reduce((sum, line) => sum + line.unit_amount * line.quantity, 0);
    const id = `cs_test_${randomId()}`;
    const session: LocalStripeSession = {
      id,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_total: amount,
      amount_subtotal: amount,
      currency: textOf(body.currency, lines[0]!.currency),
      customer_email: typeof body.customer_email === "string" ? body.customer_email : null,
      client_reference_id: typeof body.client_reference_id === "string" ? body.client_reference_id : null,
      metadata: (body.metadata ?? {}) as Record<string, string>,
      locale: typeof body.locale === "string" ? body.locale : null,
      expires_at: expiresAt,
      created: now,
      success_url: body.success_url,
      cancel_url: typeof body.cancel_url === "string" ? body.cancel_url : null,
      url: `${baseUrl}/checkout/${id}`,
      payment_intent: null,
      payment_method_types: Array.isArray(body.allowed_payment_method_types)
        ? body.allowed_payment_method_types.map((type) => textOf(type))
        : ["card"],
      livemode: false,
      line_items_sent: lines,
    };
    sessions.set(id, session);
    return [200, session];
  }

  /** Stripe expires open sessions at expires_at on its own. */
  function sessionNow(id: string) {
    const session = sessions.get(id);
    if (session && session.status === "open" && session.expires_at <= Date.now() / 1000) {
      session.status = "expired";
      session.url = null;
    }
    return session;
  }

  function hostedPage(res: http.ServerResponse, method: string, id: string, action: "pay" | "pay-later" | "cancel" | undefined) {
    const session = sessionNow(id);
    if (!session) return sendHtml(res, 404, "<h1>Sessione non trovata</h1>");
    if (method === "POST" && (action === "pay" || action === "pay-later")) {
      void (action === "pay" ? pay(id) : payLater(id)).then(
        () => redirect(res, session.success_url.replace("{CHECKOUT_SESSION_ID}", id)),
        (error: unknown) => send(res, 500, { error: { type: "api_error", message: (error as Error).message } }),
      );
      return;
    }
    if (method === "POST" && action === "cancel") return redirect(res, session.cancel_url ?? session.success_url);
    const amount = new Intl.NumberFormat("it-IT", { style: "currency", currency: session.currency.toUpperCase() }).format(session.amount_total / 100);
    const open = session.status === "open";
    return sendHtml(
      res,
      200,
      `<h1>Stripe locale (test)</h1><p>Totale: <strong>${amount}</strong></p><p>Metodo: ${session.payment_method_types.join(", ")}</p>` +
        (open
          ? `<form method="post" action="/checkout/${id}/pay"><button type="submit">Paga ${amount}</button></form>` +
            `<form method="post" action="/checkout/${id}/pay-later"><button type="submit">Pagamento da confermare più tardi (${amount})</button></form>` +
            `<form method="post" action="/checkout/${id}/cancel"><button type="submit">Annulla</button></form>`
          : `<p>Sessione ${session.status}.</p>`),
    );
  }

  function eventFor(type: string, session: LocalStripeSession) {
    const id = `evt_${randomId()}`;
    const payload = JSON.stringify(
      {
        id,
        object: "event",
        api_version: "2026-10-28.endive",
        created: Math.floor(Date.now() / 1000),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: session },
      },
      null,
      2,
    );
    return { id, payload, signature: signStripeWebhookPayload(payload, webhookSecret) };
  }

  async function deliver(payload: string, signature: string | null): Promise<number> {
    if (!api.webhookUrl) throw new Error("local Stripe: no webhookUrl to deliver to");
    const headers: Record<string, string> = {
      "Content-Type": "application/json; charset=utf-8",
      "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
    };
    if (signature !== null) headers["Stripe-Signature"] = signature;
    const response = await fetch(api.webhookUrl, { method: "POST", headers, body: payload });
    await response.arrayBuffer();
    return response.status;
  }

  async function sendEvent(type: string, session: LocalStripeSession): Promise<WebhookDelivery | null> {
    if (!api.webhookUrl) return null;
    const event = eventFor(type, session);
    const delivery = { eventId: event.id, type, status: await deliver(event.payload, event.signature) };
    deliveries.push(delivery);
    return delivery;
  }

  async function pay(id: string) {
    const session = sessionNow(id);
    if (!session) throw new Error(`local Stripe: no session ${id}`);
    if (session.status !== "open") throw new Error(`local Stripe: session ${id} is ${session.status}`);
    session.status = "complete";
    session.payment_status = "paid";
    session.payment_intent = `pi_${randomId()}`;
    intentStatuses.set(session.payment_intent, "succeeded");
    session.url = null;
    return sendEvent("checkout.session.completed", session);
  }

  async function payLater(id: string, options: { deliver?: boolean } = {}) {
    const session = sessionNow(id);
    if (!session) throw new Error(`local Stripe: no session ${id}`);
    if (session.status !== "open") throw new Error(`local Stripe: session ${id} is ${session.status}`);
    session.status = "complete";
    session.payment_status = "unpaid";
    session.payment_intent = `pi_${randomId()}`;
    intentStatuses.set(session.payment_intent, "processing");
    session.url = null;
    return options.deliver === false ? null : sendEvent("checkout.session.completed", session);
  }

  async function settleLater(id: string, outcome: "succeeded" | "failed", options: { deliver?: boolean } = {}) {
    const session = sessionNow(id);
    const intent = session?.payment_intent;
    if (!session || !intent || intentStatuses.get(intent) !== "processing") throw new Error(`local Stripe: session ${id} has no processing payment`);
    // Stripe keeps a failed session "complete" and "unpaid": only its PaymentIntent tells.
    intentStatuses.set(intent, outcome === "succeeded" ? "succeeded" : "requires_payment_method");
    if (outcome === "succeeded") session.payment_status = "paid";
    const type = outcome === "succeeded" ? "checkout.session.async_payment_succeeded" : "checkout.session.async_payment_failed";
    return options.deliver === false ? null : sendEvent(type, session);
  }

  async function expire(id: string) {
    const session = sessionNow(id);
    if (!session) throw new Error(`local Stripe: no session ${id}`);
    if (session.status === "open") {
      session.status = "expired";
      session.url = null;
    }
    return sendEvent("checkout.session.expired", session);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const api: LocalStripeServer = {
    url: baseUrl,
    secretKey,
    webhookSecret,
    webhookUrl: options.webhookUrl ?? null,
    sessions,
    requests,
    deliveries,
    responseDelayMs: 0,
    pay,
    expire,
    payLater,
    settleLater,
    buildEvent: (type, sessionId) => {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`local Stripe: no session ${sessionId}`);
      return eventFor(type, session);
    },
    deliver,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}

function randomId() {
  return crypto.randomBytes(12).toString("hex");
}

function headerOf(req: http.IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === "string" ? value : null;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function stripeError(type: string, message: string, code?: string, param?: string) {
  return { error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } };
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${randomId()}` });
  res.end(JSON.stringify(body));
}

function sendHtml(res: http.ServerResponse, status: number, inner: string) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
  res.end(
    `<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Stripe locale (test)</title></head><body><main>${inner}</main></body></html>`,
  );
}

function redirect(res: http.ServerResponse, location: string) {
  res.writeHead(303, { Location: location });
  res.end();
}

/**
 * Stripe's form encoding (the SDK writes qs-style brackets: `line_items[0][price_data][unit_amount]=1234`)
 * back into nested objects and arrays.
 */
export function parseStripeForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, "").split("[");
    let node = root;
    path.forEach((segment, index) => {
      if (index === path.length - 1) {
        node[segment] = value;
      } else {
        node[segment] ??= {};
        node = node[segment] as Record<string, unknown>;
      }
    });
  }
  return arraysOf(root) as Record<string, unknown>;
}

function arraysOf(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, arraysOf(inner)] as const);
  const isArray = entries.length > 0 && entries.every(([key], index) => key === String(index));
  return isArray ? entries.map(([, inner]) => inner) : Object.fromEntries(entries);
}

/** A text parameter of a request (form-encoded: every leaf is a string). */
function textOf(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : fallback;
}
