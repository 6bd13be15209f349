/**
 * A Scalapay-protocol HTTP server on 127.0.0.1 for tests (never the network). The shop's provider
 * (server/payments/scalapay.ts) talks to it through SCALAPAY_API_URL with a Bearer key, as to Scalapay's
 * online API v2, for the calls the shop makes:
 *
 *   POST /v2/orders, GET /v2/payments/:token, POST /v2/payments/capture,
 *   POST /v2/payments/:token/refund, POST /v2/payments/:token/void
 *
 * and a hosted page (GET /checkout/:token) whose buttons authorize the order (the customer goes to
 * redirectConfirmUrl with orderToken and status=SUCCESS), decline it, or go back (redirectCancelUrl).
 * Amounts are decimal texts with an upper-case currency, as Scalapay writes them. A second capture is
 * refused with 400, as Scalapay refuses it; a refund with a merchant refund reference seen before answers
 * the same refund. Test-only: production code never imports it.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

type Amount = { amount: string; currency: string };

export type LocalScalapayOrder = {
  token: string;
  status: "pending" | "authorized" | "charged" | "declined" | "voided" | "expired" | "refunded" | "partially_refunded";
  totalAmount: Amount;
  consumer: Record<string, unknown>;
  shipping: Record<string, unknown> | null;
  items: { name: string; quantity: number; price: Amount }[];
  merchantReference: string;
  redirectConfirmUrl: string;
  redirectCancelUrl: string;
  product: string;
  created: string;
  expiresAt: number;
  captures: number;
  refunds: { refundToken: string; amount: Amount; merchantRefundReference: string; refundedAt: string }[];
};

export type ScalapayRequest = { method: string; path: string; body: Record<string, unknown> };

export type LocalScalapayServer = {
  url: string;
  apiKey: string;
  orders: Map<string, LocalScalapayOrder>;
  requests: ScalapayRequest[];
  /** The customer authorizes on Scalapay's page (without a browser). */
  authorize: (token: string) => void;
  /** Scalapay declines the customer. */
  decline: (token: string) => void;
  /** The next captures answer 503 (Scalapay down); the order stays authorized. */
  failCaptures: boolean;
  /** Changes what Scalapay says the order is for (a tampered amount, another currency). */
  setAmount: (token: string, amount: Amount) => void;
  close: () => Promise<void>;
};

const centsText = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
const toCents = (amount: Amount) => Math.round(Number(amount.amount) * 100);

export async function startLocalScalapayServer(): Promise<LocalScalapayServer> {
  const apiKey = `qhtfs87hjnc12kkos_${crypto.randomBytes(6).toString("hex")}`;
  const orders = new Map<string, LocalScalapayOrder>();
  const requests: ScalapayRequest[] = [];
  let baseUrl = "";

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, { errorCode: "internal", message: (error as Error).message }));
  });

  function orderNow(token: string) {
    const order = orders.get(token);
    if (order && order.status === "pending" && order.expiresAt <= Date.now()) order.status = "expired";
    return order;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", baseUrl);
    const method = req.method ?? "GET";
    const raw = await readBody(req);

    const page = /^\/checkout\/([^/]+)(?:\/(authorize|decline|back))?$/.exec(url.pathname);
    if (page) return hostedPage(res, method, decodeURIComponent(page[1]!), page[2] as "authorize" | "decline" | "back" | undefined);

    if (!url.pathname.startsWith("/v2/")) return send(res, 404, { errorCode: "not_found", message: "Unknown path" });
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(res, 401, { errorCode: "unauthorized", message: "Invalid API key" });
    let body: Record<string, unknown> = {};
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(res, 400, { errorCode: "bad_request", message: "Body is not JSON" });
      }
    }
    requests.push({ method, path: url.pathname, body });
    const [status, answer] = route(method, url.pathname, body);
    return send(res, status, answer);
  }

  function route(method: string, path: string, body: Record<string, unknown>): [number, unknown] {
    if (method === "POST" && path === "/v2/orders") return createOrder(body);
    if (method === "POST" && path === "/v2/payments/capture") {
      const order = orderNow(textOf(body.token));
      if (!order) return [404, { errorCode: "not_found", message: "Order not found" }];
      if (api.failCaptures) return [503, { errorCode: "unavailable", message: "Try again later" }];
      if (order.status !== "authorized") return [400, { errorCode: "invalid_status", message: `Order is ${order.status}, not authorized` }];
      order.status = "charged";
      order.captures += 1;
      return [200, { token: order.token, status: "APPROVED", totalAmount: order.totalAmount, orderDetails: detailsOf(order) }];
    }
    const one = /^\/v2\/payments\/([^/]+)(?:\/(refund|void))?$/.exec(path);
    if (!one) return [404, { errorCode: "not_found", message: "Unknown path" }];
    const order = orderNow(decodeURIComponent(one[1]!));
    if (!order) return [404, { errorCode: "not_found", message: "Order not found" }];
    if (method === "GET" && !one[2]) return [200, paymentOf(order)];
    if (method === "POST" && one[2] === "void") {
      if (order.status !== "authorized") return [400, { errorCode: "invalid_status", message: `Order is ${order.status}` }];
      order.status = "voided";
      return [200, paymentOf(order)];
    }
    if (method === "POST" && one[2] === "refund") return refund(order, body);
    return [405, { errorCode: "method_not_allowed", message: method }];
  }

  function createOrder(body: Record<string, unknown>): [number, unknown] {
    const total = body.totalAmount as Amount | undefined;
    const merchant = body.merchant as { redirectConfirmUrl?: string; redirectCancelUrl?: string } | undefined;
    const consumer = body.consumer as Record<string, unknown> | undefined;
    if (!total || !/^\d+\.\d{2}$/.test(String(total.amount)) || typeof total.currency !== "string") {
      return [400, { errorCode: "validation", message: "totalAmount is required" }];
    }
    if (!merchant?.redirectConfirmUrl || !merchant.redirectCancelUrl)
      return [400, { errorCode: "validation", message: "merchant redirect urls are required" }];
    if (!consumer?.email || !consumer.givenNames || !consumer.surname) return [400, { errorCode: "validation", message: "consumer is required" }];
    const token = crypto.randomBytes(5).toString("hex").toUpperCase();
    const items = (Array.isArray(body.items) ? body.items : []) as LocalScalapayOrder["items"];
    const expiryMs = typeof body.orderExpiryMilliseconds === "number" ? body.orderExpiryMilliseconds : 3600_000;
    orders.set(token, {
      token,
      status: "pending",
      totalAmount: { amount: String(total.amount), currency: total.currency },
      consumer,
      shipping: (body.shipping as Record<string, unknown> | undefined) ?? null,
      items,
      merchantReference: textOf(body.merchantReference),
      redirectConfirmUrl: merchant.redirectConfirmUrl,
      redirectCancelUrl: merchant.redirectCancelUrl,
      product: textOf(body.product, "pay-in-3"),
      created: new Date().toISOString(),
      expiresAt: Date.now() + expiryMs,
      captures: 0,
      refunds: [],
    });
    return [200, { token, expires: new Date(Date.now() + expiryMs).toISOString(), checkoutUrl: `${baseUrl}/checkout/${token}` }];
  }

  function refund(order: LocalScalapayOrder, body: Record<string, unknown>): [number, unknown] {
    const amount = body.refundAmount as Amount | undefined;
    const reference = textOf(body.merchantRefundReference) || textOf(body.merchantReference);
    const earlier = order.refunds.find((made) => reference && made.merchantRefundReference === reference);
    if (earlier) return [200, { token: order.token, merchantReference: order.merchantReference, ...earlier }];
    if (order.status !== "charged" && order.status !== "partially_refunded")
      return [400, { errorCode: "invalid_status", message: `Order is ${order.status}` }];
    if (!amount || !/^\d+\.\d{2}$/.test(String(amount.amount))) return [400, { errorCode: "validation", message: "refundAmount is required" }];
    const refunded = order.refunds.reduce((sum, made) => sum + toCents(made.amount), 0);
    const total = toCents(order.totalAmount);
    if (refunded + toCents(amount) > total) return [400, { errorCode: "amount_too_high", message: "Refund exceeds the order" }];
    const made = {
      refundToken: `R${crypto.randomBytes(5).toString("hex").toUpperCase()}`,
      amount,
      merchantRefundReference: reference,
      refundedAt: new Date().toISOString(),
    };
    order.refunds.push(made);
    order.status = refunded + toCents(amount) === total ? "refunded" : "partially_refunded";
    return [200, { token: order.token, merchantReference: order.merchantReference, ...made }];
  }

  function detailsOf(order: LocalScalapayOrder) {
    return { merchantReference: order.merchantReference, consumer: order.consumer, shipping: order.shipping, items: order.items };
  }

  function paymentOf(order: LocalScalapayOrder) {
    const captured = order.status === "charged" || order.status === "refunded" || order.status === "partially_refunded";
    return {
      token: order.token,
      created: order.created,
      status: order.status,
      captureStatus: captured ? "captured" : "uncaptured",
      totalAmount: order.totalAmount,
      orderDetails: detailsOf(order),
      ...(order.status === "pending" ? { checkoutUrl: `${baseUrl}/checkout/${order.token}` } : {}),
    };
  }

  function returnUrl(target: string, token: string, status: string) {
    const url = new URL(target);
    url.searchParams.set("orderToken", token);
    url.searchParams.set("status", status);
    return url.toString();
  }

  function hostedPage(res: http.ServerResponse, method: string, token: string, action?: "authorize" | "decline" | "back") {
    const order = orderNow(token);
    if (!order) return sendHtml(res, 404, "<h1>Ordine non trovato</h1>");
    if (method === "POST" && action) {
      if (action === "back") return redirect(res, returnUrl(order.redirectCancelUrl, token, "FAIL"));
      if (order.status !== "pending") return sendHtml(res, 409, `<h1>Ordine non più pagabile (${order.status})</h1>`);
      if (action === "decline") {
        order.status = "declined";
        return redirect(res, returnUrl(order.redirectCancelUrl, token, "FAIL"));
      }
      order.status = "authorized";
      return redirect(res, returnUrl(order.redirectConfirmUrl, token, "SUCCESS"));
    }
    const cents = toCents(order.totalAmount);
    const first = cents - 2 * Math.floor(cents / 3);
    const euro = (value: number) => `${centsText(value).replace(".", ",")} €`;
    const open = order.status === "pending";
    return sendHtml(
      res,
      200,
      `<h1>Scalapay locale (test)</h1>
<p>Ordine ${escapeHtml(order.merchantReference)}: ${euro(cents)} in 3 rate, la prima di ${euro(first)} oggi.</p>
<p>Stato: ${order.status}</p>
${
  open
    ? `<form method="post" action="/checkout/${token}/authorize"><button type="submit">Paga la prima rata (${euro(first)})</button></form>
<form method="post" action="/checkout/${token}/decline"><button type="submit">Rifiuta (Scalapay dice no)</button></form>`
    : ""
}
<form method="post" action="/checkout/${token}/back"><button type="submit">Torna al negozio</button></form>`,
    );
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const api: LocalScalapayServer = {
    url: baseUrl,
    apiKey,
    orders,
    requests,
    failCaptures: false,
    authorize: (token) => {
      const order = orderNow(token);
      if (!order || order.status !== "pending") throw new Error(`local Scalapay: order ${token} is not pending`);
      order.status = "authorized";
    },
    decline: (token) => {
      const order = orderNow(token);
      if (!order || order.status !== "pending") throw new Error(`local Scalapay: order ${token} is not pending`);
      order.status = "declined";
    },
    setAmount: (token, amount) => {
      const order = orders.get(token);
      if (!order) throw new Error(`local Scalapay: no order ${token}`);
      order.totalAmount = amount;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}

/** A text field of a JSON body (numbers as written). */
function textOf(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : fallback;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

function sendHtml(res: http.ServerResponse, status: number, inner: string) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
  res.end(
    `<!doctype html><html lang="it"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Scalapay locale (test)</title></head><body><main>${inner}</main></body></html>`,
  );
}

function redirect(res: http.ServerResponse, location: string) {
  res.writeHead(303, { Location: location });
  res.end();
}
