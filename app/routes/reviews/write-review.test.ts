/**
 * The review form's edge, as a guest reaches it from the confirmation e-mail: the order link's token opens
 * it, a forged or missing one finds nothing, and the post is parsed, refused by field, saved once.
 */
import crypto from "node:crypto";
import { expect, onTestFinished, test } from "vitest";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { productReviews } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { createOrder } from "#server/orders/order-creation.ts";
import { orderAccessToken } from "#server/orders/order-access.ts";
import { createTestDb } from "#tests/db.ts";
import { createTestAuthServices, requestFor, routeContext, testPublicUrl } from "#tests/fixtures/accounts.fixtures.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import * as writeReview from "./write-review";

const t = getTranslator("en");

async function openGuestOrder(status: "completed" | "shipped" = "completed") {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const services = createTestAuthServices(handle.db);
  const { productId } = await createProduct(handle.db, { nameEn: "Soft book" });
  const order = await createOrder(handle.db, {
    idempotencyKey: crypto.randomUUID(),
    userId: null,
    status,
    email: "ospite@example.com",
    phone: "+39 333 000 0000",
    firstName: "Anna",
    lastName: "Bianchi",
    locale: "en",
    deliveryMethod: "collection",
    paymentMethod: "in_shop",
    subtotalCents: 1290,
    totalCents: 1290,
    createdAt: new Date(),
    lines: [{ productId, sku: "SKU-1", name: "Soft book", quantity: 1, listPriceCents: 1290, unitPriceCents: 1290, lineTotalCents: 1290 }],
    placed: { note: "order-placed", actorUserId: null },
  });
  const token = orderAccessToken(resolveAuthSecret(services.env), order!.id);
  const path = `/en/ordine/${order!.id}/recensione/${productId}`;
  const call = async (kind: "loader" | "action", query: string, form?: Record<string, string>) => {
    const url = `${path}${query}`;
    const args = {
      request: requestFor(url, { form }),
      url: new URL(url, testPublicUrl),
      params: { orderId: order!.id, productId: String(productId) },
      context: routeContext(services),
    };
    try {
      return answerOf(await (kind === "loader" ? writeReview.loader(args as never) : writeReview.action(args as never)));
    } catch (thrown) {
      return answerOf(thrown);
    }
  };
  return { db: handle.db, token, call };
}

/** A loader's or action's answer: status, data, redirect target. */
function answerOf(value: unknown): { status: number; data: Record<string, unknown>; location: string | null } {
  if (value instanceof Response) return { status: value.status, data: {}, location: value.headers.get("Location") };
  const wrapped = value as { data?: Record<string, unknown>; init?: ResponseInit | null; type?: string };
  if (wrapped.type === "DataWithResponseInit") return { status: wrapped.init?.status ?? 200, data: wrapped.data ?? {}, location: null };
  return { status: 200, data: value as Record<string, unknown>, location: null };
}

test("the order link opens the form; without it, or with a forged one, there is nothing to find", async () => {
  const { token, call } = await openGuestOrder();
  const opened = await call("loader", `?t=${token}`);
  expect(opened.status).toBe(200);
  expect(opened.data.view).toMatchObject({ product: { name: "Soft book" }, authorName: "Anna B.", written: null });
  expect((await call("loader", "")).status).toBe(404);
  expect((await call("loader", "?t=forged-token")).status).toBe(404);
  expect((await call("action", "?t=forged-token", { stars: "5", text: "Lovely soft pages for little hands." })).status).toBe(404);
});

test("a guest's post: refused by field with nothing saved, then saved once; a second post is told so", async () => {
  const { db, token, call } = await openGuestOrder();
  const refused = await call("action", `?t=${token}`, { stars: "9", text: "" });
  expect(refused.status).toBe(400);
  const fields = refused.data.fields as Record<string, string>;
  expect(Object.fromEntries(Object.entries(fields).map(([name, key]) => [name, t(key)]))).toEqual({
    stars: "Choose a rating from 1 to 5 stars.",
    text: "Write your review.",
  });
  expect(await db.$count(productReviews)).toBe(0);

  const saved = await call("action", `?t=${token}`, { stars: "5", text: "Lovely soft pages for little hands." });
  expect(saved.status).toBe(303);
  expect(saved.location).toMatch(/\/en\/ordine\/[0-9a-f-]{36}\/recensione\/\d+\?t=.+&inviata=1$/);
  const again = await call("action", `?t=${token}`, { stars: "1", text: "Changed my mind about this book." });
  expect(again.status).toBe(409);
  expect(t(`reviews.errors.${String(again.data.error)}`)).toBe("You have already reviewed this product for this order: only one review is possible.");
  expect(
    await db.select({ stars: productReviews.stars, authorName: productReviews.authorName, locale: productReviews.locale }).from(productReviews),
  ).toEqual([{ stars: 5, authorName: "Anna B.", locale: "en" }]);
});

test("an order not yet collected says why there is nothing to write, and refuses a post", async () => {
  const { db, token, call } = await openGuestOrder("shipped");
  expect((await call("loader", `?t=${token}`)).data).toMatchObject({ view: null, notDelivered: true });
  const posted = await call("action", `?t=${token}`, { stars: "5", text: "Lovely soft pages for little hands." });
  expect(posted.status).toBe(409);
  expect(posted.data.error).toBe("not-delivered");
  expect(await db.$count(productReviews)).toBe(0);
});
