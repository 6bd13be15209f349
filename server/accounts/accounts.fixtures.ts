/**
 * Test helpers for the accounts suites (imported by *.test.ts only): better-auth wired to a test
 * database, requests with cookies and a client address, and the mails the outbox holds.
 */
import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import type { Locale } from "#app/lib/locale.ts";
import type { Db } from "#server/db/client.ts";
import { outboxEmails, users } from "#server/db/schema.ts";
import { readEnv, type Env } from "#server/env.ts";
import { requestContext, shopContext, type ShopServices } from "#server/http/context.ts";
import { createOrder } from "#server/orders/order-creation.ts";
import type { OrderStatus } from "#server/orders/order-status.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { createAuth } from "./auth";
import type { AuthCaller, AuthServices } from "./auth-flows.service";

export const testPublicUrl = "http://shop.test";

/** Never written: AUTH_SECRET is set, so nothing is kept in DATA_DIR. */
const dataDir = path.join(os.tmpdir(), "bimbi-accounts-tests");

export function testEnv(overrides: Record<string, string> = {}): Env {
  return readEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    AUTH_SECRET: "test-secret-for-the-accounts-suite-0123456789",
    LOG_LEVEL: "silent",
    ...overrides,
  });
}

export function createTestAuthServices(db: Db, envOverrides: Record<string, string> = {}, publicUrl = testPublicUrl): AuthServices {
  const env = testEnv(envOverrides);
  return { db, env, publicUrl, auth: createAuth({ db, env, publicUrl }) };
}

/** A router context as the Express entry builds it, for calling loaders and actions directly. */
export function routeContext(services: AuthServices, clientIp = "203.0.113.7"): RouterContextProvider {
  const context = new RouterContextProvider();
  const log = { info() {}, warn() {}, error() {}, debug() {} } as unknown as ShopServices["log"];
  context.set(shopContext, { ...services, log });
  context.set(requestContext, { cspNonce: "test", clientIp });
  return context;
}

export function requestFor(url: string, init: { jar?: CookieJar; method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Request {
  const headers = new Headers(init.headers);
  const cookie = init.jar?.header();
  if (cookie) headers.set("Cookie", cookie);
  const method = init.method ?? (init.form ? "POST" : "GET");
  if (method !== "GET") headers.set("Origin", testPublicUrl);
  const body = init.form ? new URLSearchParams(init.form) : undefined;
  return new Request(new URL(url, testPublicUrl), { method, headers, body });
}

export function callerFor(path: string, options: { jar?: CookieJar; ip?: string; locale?: Locale } = {}): AuthCaller {
  return { request: requestFor(path, { jar: options.jar }), clientIp: options.ip ?? "203.0.113.7", locale: options.locale ?? "it" };
}

/** The newest outbox mail of `kind` to `to`, with the first shop link of its text. */
export async function lastMail(db: Db, to: string, kind: string) {
  const [mail] = await db
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.toAddress, to), eq(outboxEmails.kind, kind)))
    .orderBy(desc(outboxEmails.id))
    .limit(1);
  if (!mail) return null;
  const link = /https?:\/\/\S+(?:token=|forgot-password)\S*/.exec(mail.textBody)?.[0] ?? null;
  return { ...mail, link };
}

export async function countMails(db: Db, to: string) {
  return (await db.select({ id: outboxEmails.id }).from(outboxEmails).where(eq(outboxEmails.toAddress, to))).length;
}

export async function userIdOf(db: Db, email: string) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id ?? null;
}

/** Hostile or broken values every text field must refuse with a message (the bad-input matrix). */
export const badTextValues: Record<string, string> = {
  empty: "",
  tooLong: "a".repeat(10_000),
  nulByte: "Maria\u0000Rossi",
  html: '<script>alert("x")</script>',
  sql: "'; DROP TABLE users; --",
};

/** An order in the status a test needs, made as every order is (createOrder): for the purchases tests. */
export async function insertOrder(
  db: Db,
  userId: string | null,
  options: { createdAt?: Date; status?: OrderStatus; lines?: { name: string; quantity: number; unitPriceCents: number; colour?: string; size?: string }[] } = {},
) {
  const lines = options.lines ?? [{ name: "Passeggino Trio", quantity: 1, unitPriceCents: 49_900 }];
  const total = lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
  const order = await createOrder(db, {
    idempotencyKey: crypto.randomUUID(),
    userId,
    status: options.status ?? "paid",
    email: "cliente@example.com",
    phone: "+39 333 000 0000",
    firstName: "Cliente",
    lastName: "Prova",
    deliveryMethod: "collection",
    paymentMethod: "card",
    subtotalCents: total,
    totalCents: total,
    createdAt: options.createdAt ?? new Date(),
    lines: lines.map((line, index) => ({
      sku: `SKU-${index}`,
      name: line.name,
      colour: line.colour ?? null,
      size: line.size ?? null,
      quantity: line.quantity,
      listPriceCents: line.unitPriceCents,
      unitPriceCents: line.unitPriceCents,
      lineTotalCents: line.quantity * line.unitPriceCents,
    })),
    placed: { note: "order-placed", actorUserId: null },
  });
  if (!order) throw new Error("insertOrder: a fresh idempotency key is taken");
  return order;
}
