import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { readCatalogueVersion } from "#server/catalog/catalogue-cache.ts";
import { getProductCards } from "#server/catalog/product-card.ts";
import type { Db } from "#server/db/client.ts";
import { outboxEmails, productReviews } from "#server/db/schema.ts";
import { createOrder } from "#server/orders/order-creation.ts";
import type { OrderStatus } from "#server/orders/order-status.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { getProductReviews, getReviewSummaries } from "./review-display.service";
import { getReviewForm, listReviewableLines, listReviewsForModeration, moderateReview, moderateReviewForm, writeReview } from "./review.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

/** An order of `userId` for one unit of each product, in `status`. */
async function orderOf(db: Db, userId: string | null, productIds: number[], status: OrderStatus = "completed") {
  const order = await createOrder(db, {
    idempotencyKey: crypto.randomUUID(),
    userId,
    status,
    email: "maria@example.com",
    phone: "+39 333 000 0000",
    firstName: "Maria",
    lastName: "Rossi",
    locale: "it",
    deliveryMethod: "collection",
    paymentMethod: "in_shop",
    subtotalCents: 1000 * productIds.length,
    totalCents: 1000 * productIds.length,
    createdAt: new Date(),
    lines: productIds.map((productId, index) => ({
      productId,
      sku: `SKU-${index}`,
      name: `Prodotto ${productId}`,
      quantity: 1,
      listPriceCents: 1000,
      unitPriceCents: 1000,
      lineTotalCents: 1000,
    })),
    placed: { note: "order-placed", actorUserId: userId },
  });
  return order!.id;
}

const goodReview = { stars: "4", text: "Comodo e facile da pulire, lo consiglio." };

async function setUp() {
  const db = await openDb();
  const buyer = await createUser(db);
  const { productId } = await createProduct(db);
  const orderId = await orderOf(db, buyer, [productId]);
  return { db, buyer, productId, orderId, asBuyer: { userId: buyer, hasOrderLink: false } };
}

test("the buyer of a completed order writes a review, waiting for the staff, signed with name and initial", async () => {
  const { db, productId, orderId, asBuyer } = await setUp();
  const written = await writeReview(db, { orderId, productId, proof: asBuyer, locale: "it", raw: goodReview });
  expect(written).toEqual({ ok: true, reviewId: expect.any(Number) });
  const [row] = await db.select().from(productReviews);
  expect(row).toMatchObject({ stars: 4, body: goodReview.text, authorName: "Maria R.", status: "pending", locale: "it" });
  // Waiting: shown nowhere yet.
  expect(await getProductReviews(db, productId)).toEqual({ summary: null, reviews: [] });
  expect((await listReviewableLines(db, [orderId])).get(orderId)).toEqual([{ productId, name: `Prodotto ${productId}`, review: "pending" }]);
});

test("a guest with the order's link may review; so may nobody else", async () => {
  const db = await openDb();
  const { productId } = await createProduct(db);
  const orderId = await orderOf(db, null, [productId]);
  const stranger = await createUser(db);
  expect(await writeReview(db, { orderId, productId, proof: { userId: stranger, hasOrderLink: false }, locale: "it", raw: goodReview })).toEqual({
    ok: false,
    error: "not-found",
  });
  expect(await writeReview(db, { orderId, productId, proof: { userId: null, hasOrderLink: true }, locale: "en", raw: goodReview })).toMatchObject({
    ok: true,
  });
});

test("another customer's order is refused as not found, and nothing is written", async () => {
  const { db, productId, orderId } = await setUp();
  const other = await createUser(db);
  const proof = { userId: other, hasOrderLink: false };
  expect(await getReviewForm(db, { orderId, productId, proof })).toEqual({ ok: false, error: "not-found" });
  expect(await writeReview(db, { orderId, productId, proof, locale: "it", raw: goodReview })).toEqual({ ok: false, error: "not-found" });
  expect(await db.select().from(productReviews)).toEqual([]);
});

test("an order not yet delivered, or a product it does not hold, cannot be reviewed", async () => {
  const db = await openDb();
  const buyer = await createUser(db);
  const proof = { userId: buyer, hasOrderLink: false };
  const { productId } = await createProduct(db);
  const { productId: notBought } = await createProduct(db);
  for (const status of ["awaiting_payment", "paid", "preparing", "shipped", "ready_for_collection", "cancelled"] as const) {
    const orderId = await orderOf(db, buyer, [productId], status);
    expect(await writeReview(db, { orderId, productId, proof, locale: "it", raw: goodReview }), status).toEqual({
      ok: false,
      error: "not-delivered",
    });
    expect(await listReviewableLines(db, [orderId])).toEqual(new Map());
  }
  const completed = await orderOf(db, buyer, [productId]);
  expect(await writeReview(db, { orderId: completed, productId: notBought, proof, locale: "it", raw: goodReview })).toEqual({
    ok: false,
    error: "not-found",
  });
  expect(await db.select().from(productReviews)).toEqual([]);
});

test("one review per product per order: the second try is told so and changes nothing", async () => {
  const { db, productId, orderId, asBuyer } = await setUp();
  await writeReview(db, { orderId, productId, proof: asBuyer, locale: "it", raw: goodReview });
  expect(
    await writeReview(db, { orderId, productId, proof: asBuyer, locale: "it", raw: { stars: "1", text: "Ci ho ripensato, non va bene." } }),
  ).toEqual({
    ok: false,
    error: "already-reviewed",
  });
  const rows = await db.select({ stars: productReviews.stars }).from(productReviews);
  expect(rows).toEqual([{ stars: 4 }]);
  // The same product bought again in another order is a new purchase to review.
  const again = await orderOf(db, asBuyer.userId, [productId]);
  expect(await writeReview(db, { orderId: again, productId, proof: asBuyer, locale: "it", raw: goodReview })).toMatchObject({ ok: true });
});

test("bad stars and empty or too long text come back by field, with nothing written", async () => {
  const { db, productId, orderId, asBuyer } = await setUp();
  const attempt = (raw: unknown) => writeReview(db, { orderId, productId, proof: asBuyer, locale: "it", raw });
  expect(await attempt({ stars: "0", text: goodReview.text })).toEqual({ ok: false, error: "invalid", fields: { stars: "reviews.errors.stars" } });
  expect(await attempt({ stars: "6", text: goodReview.text })).toMatchObject({ fields: { stars: "reviews.errors.stars" } });
  expect(await attempt({ stars: "3.5", text: goodReview.text })).toMatchObject({ fields: { stars: "reviews.errors.stars" } });
  expect(await attempt({ stars: "cinque", text: goodReview.text })).toMatchObject({ fields: { stars: "reviews.errors.stars" } });
  expect(await attempt({ text: goodReview.text })).toMatchObject({ fields: { stars: "reviews.errors.stars" } });
  expect(await attempt({ stars: "4", text: "   \n  " })).toEqual({ ok: false, error: "invalid", fields: { text: "reviews.errors.textRequired" } });
  expect(await attempt({ stars: "4" })).toMatchObject({ fields: { text: "reviews.errors.textRequired" } });
  expect(await attempt({ stars: "4", text: "Bello" })).toMatchObject({ fields: { text: "reviews.errors.textTooShort" } });
  expect(await attempt({ stars: "4", text: "a".repeat(2001) })).toMatchObject({ fields: { text: "reviews.errors.tooLong" } });
  expect(await attempt({ stars: "4", text: "Buono ma\u0000 con un carattere nascosto" })).toMatchObject({
    fields: { text: "reviews.errors.invalidCharacters" },
  });
  expect(await db.select().from(productReviews)).toEqual([]);
  // Line breaks are kept as written.
  expect(await attempt({ stars: "5", text: "Prima riga.\nSeconda riga." })).toMatchObject({ ok: true });
});

test("the staff publish with a reply: the product shows it, newest first, with average and count", async () => {
  const { db, buyer, productId, orderId, asBuyer } = await setUp();
  const staff = await createAdminUser(db);
  const first = await writeReview(db, {
    orderId,
    productId,
    proof: asBuyer,
    locale: "it",
    raw: { stars: "5", text: "Perfetto per la nanna del piccolo." },
  });
  const secondOrder = await orderOf(db, buyer, [productId]);
  const second = await writeReview(db, {
    orderId: secondOrder,
    productId,
    proof: asBuyer,
    locale: "en",
    raw: { stars: "4", text: "Good, a little heavy to carry." },
  });
  const thirdOrder = await orderOf(db, buyer, [productId]);
  await writeReview(db, {
    orderId: thirdOrder,
    productId,
    proof: asBuyer,
    locale: "it",
    raw: { stars: "1", text: "Ancora da verificare, non contarla." },
  });
  if (!first.ok || !second.ok) throw new Error("reviews not written");

  const pending = await listReviewsForModeration(db, { status: "pending", locale: "it" });
  expect(pending.map((row) => row.id)).toEqual([first.reviewId, second.reviewId, expect.any(Number)]);

  const now = new Date("2026-11-20T10:00:00Z");
  expect(
    await moderateReview(db, { input: { intent: "publish", reviewId: first.reviewId, reply: "Grazie Maria!" }, moderatorUserId: staff, now }),
  ).toEqual({ ok: true, done: "published" });
  expect(await moderateReview(db, { input: { intent: "publish", reviewId: second.reviewId, reply: null }, moderatorUserId: staff, now })).toEqual({
    ok: true,
    done: "published",
  });

  const shown = await getProductReviews(db, productId);
  expect(shown.summary).toEqual({ count: 2, average: 4.5 });
  expect(shown.reviews.map((review) => [review.stars, review.authorName, review.reply])).toEqual([
    [4, "Maria R.", null],
    [5, "Maria R.", "Grazie Maria!"],
  ]);
  expect(await getReviewSummaries(db, [productId])).toEqual(new Map([[productId, { count: 2, average: 4.5 }]]));
  const [card] = await getProductCards(db, { productIds: [productId], locale: "it", now });
  expect(card!.reviews).toEqual({ count: 2, average: 4.5 });

  // A reply to a published review is changed or taken back; a pending one cannot be answered.
  expect(
    await moderateReview(db, { input: { intent: "reply", reviewId: second.reviewId, reply: "Thank you!" }, moderatorUserId: staff, now }),
  ).toEqual({
    ok: true,
    done: "replied",
  });
  expect((await getProductReviews(db, productId)).reviews[0]!.reply).toBe("Thank you!");
  const stillPending = pending[2]!.id;
  expect(await moderateReview(db, { input: { intent: "reply", reviewId: stillPending, reply: "No" }, moderatorUserId: staff, now })).toEqual({
    ok: false,
    error: "not-published",
  });
});

test("averages round to one decimal over published reviews only", async () => {
  const db = await openDb();
  const buyer = await createUser(db);
  const staff = await createAdminUser(db);
  const { productId } = await createProduct(db);
  const { productId: unreviewed } = await createProduct(db);
  for (const stars of [5, 4, 4]) {
    const orderId = await orderOf(db, buyer, [productId]);
    const written = await writeReview(db, {
      orderId,
      productId,
      proof: { userId: buyer, hasOrderLink: false },
      locale: "it",
      raw: { stars, text: "Una recensione abbastanza lunga." },
    });
    if (!written.ok) throw new Error("not written");
    await moderateReview(db, { input: { intent: "publish", reviewId: written.reviewId, reply: null }, moderatorUserId: staff, now: new Date() });
  }
  expect(await getReviewSummaries(db, [productId, unreviewed])).toEqual(new Map([[productId, { count: 3, average: 4.3 }]]));
  const cards = await getProductCards(db, { productIds: [productId, unreviewed], locale: "it", now: new Date() });
  expect(cards.map((card) => card.reviews)).toEqual([{ count: 3, average: 4.3 }, null]);
});

test("a refusal needs a reason, is mailed to the buyer in the review's language, and hides the review", async () => {
  const { db, productId, orderId, asBuyer } = await setUp();
  const staff = await createAdminUser(db);
  const written = await writeReview(db, { orderId, productId, proof: asBuyer, locale: "en", raw: goodReview });
  if (!written.ok) throw new Error("not written");
  const now = new Date();
  expect(
    await moderateReviewForm(db, { raw: { intent: "refuse", reviewId: String(written.reviewId), reason: "  " }, moderatorUserId: staff, now }),
  ).toEqual({
    ok: false,
    error: "invalid",
    message: "reviews.errors.reasonRequired",
  });
  expect(
    await moderateReviewForm(db, {
      raw: { intent: "refuse", reviewId: String(written.reviewId), reason: "It names another customer." },
      moderatorUserId: staff,
      now,
    }),
  ).toEqual({ ok: true, done: "refused" });
  const [mail] = await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "review-refused"));
  expect(mail).toMatchObject({ toAddress: "maria@example.com", locale: "en", subject: `Your review of Prodotto ${productId} was not published` });
  expect(mail!.textBody).toContain("The reason: It names another customer.");
  expect(await getProductReviews(db, productId)).toEqual({ summary: null, reviews: [] });
  expect((await listReviewsForModeration(db, { status: "refused", locale: "en" }))[0]).toMatchObject({ refusalReason: "It names another customer." });
  // Decided once: a second decision is told it came too late.
  expect(await moderateReview(db, { input: { intent: "publish", reviewId: written.reviewId, reply: null }, moderatorUserId: staff, now })).toEqual({
    ok: false,
    error: "already-moderated",
  });
  expect(await moderateReview(db, { input: { intent: "publish", reviewId: 999_999, reply: null }, moderatorUserId: staff, now })).toEqual({
    ok: false,
    error: "not-found",
  });
  expect(await moderateReviewForm(db, { raw: { intent: "delete", reviewId: "1" }, moderatorUserId: staff, now })).toMatchObject({ error: "invalid" });
});

test("publishing moves the catalogue's version on, so kept catalogue answers are recomputed", async () => {
  const { db, productId, orderId, asBuyer } = await setUp();
  const staff = await createAdminUser(db);
  const written = await writeReview(db, { orderId, productId, proof: asBuyer, locale: "it", raw: goodReview });
  if (!written.ok) throw new Error("not written");
  const beforePublishing = await readCatalogueVersion(db);
  await moderateReview(db, { input: { intent: "publish", reviewId: written.reviewId, reply: null }, moderatorUserId: staff, now: new Date() });
  const published = await readCatalogueVersion(db);
  expect(BigInt(published)).toBeGreaterThan(BigInt(beforePublishing));
  await moderateReview(db, { input: { intent: "reply", reviewId: written.reviewId, reply: "Grazie!" }, moderatorUserId: staff, now: new Date() });
  expect(BigInt(await readCatalogueVersion(db))).toBeGreaterThan(BigInt(published));
});

testOnPostgres("two staff deciding on one review at once: one decision stands, the other is told, one mail at most", async () => {
  const handle = await createTestDb({ poolSize: 4 });
  onTestFinished(() => handle.close());
  const { db } = handle;
  const buyer = await createUser(db);
  const [first, second] = [await createAdminUser(db, "Carla"), await createAdminUser(db, "Dario")];
  const { productId } = await createProduct(db);
  for (let round = 0; round < 5; round += 1) {
    const orderId = await orderOf(db, buyer, [productId]);
    const written = await writeReview(db, { orderId, productId, proof: { userId: buyer, hasOrderLink: false }, locale: "it", raw: goodReview });
    if (!written.ok) throw new Error("not written");
    const now = new Date();
    const results = await Promise.all([
      moderateReview(db, { input: { intent: "publish", reviewId: written.reviewId, reply: "Grazie!" }, moderatorUserId: first, now }),
      moderateReview(db, {
        input: { intent: "refuse", reviewId: written.reviewId, reason: "Non parla del prodotto." },
        moderatorUserId: second,
        now,
      }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, error: "already-moderated" }]);
    const [row] = await db.select({ status: productReviews.status }).from(productReviews).where(eq(productReviews.id, written.reviewId));
    const mails = await db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `review-refused:${written.reviewId}`));
    expect(mails).toHaveLength(row!.status === "refused" ? 1 : 0);
  }
});
