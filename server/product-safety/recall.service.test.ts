import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { onTestFinished, expect, test } from "vitest";
import { addToCart } from "#server/cart/cart.service.ts";
import { addProductToGiftList } from "#server/gift-lists/gift-list.service.ts";
import { getProductPage } from "#server/catalog/product.service.ts";
import type { Db } from "#server/db/client.ts";
import { outboxEmails, productRecalls, users } from "#server/db/schema.ts";
import { createOrder } from "#server/orders/order-creation.ts";
import type { OrderStatus } from "#server/orders/order-status.ts";
import { createTestDb } from "#tests/db.ts";
import { createGiftList, createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { testPublicUrl } from "#tests/fixtures/checkout.fixtures.ts";
import { RecallInput } from "./product-safety.inputs";
import { listRecallRecipients, listRecallSales, recallProduct, sendRecallNotices } from "./recall.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const notice = (variantIds: number[] = []) =>
  RecallInput.parse({
    variantIds: variantIds.map(String),
    hazardIt: "La cinghia può staccarsi: rischio di caduta.",
    hazardEn: "The strap may come loose: fall hazard.",
    whatToDoIt: "Smettere subito di usare il prodotto.",
    whatToDoEn: "Stop using the product at once.",
    remedyIt: "Rimborso completo o sostituzione gratuita.",
    remedyEn: "Full refund or free replacement.",
  });

async function sell(
  db: Db,
  variantId: number,
  buyer: { email: string; userId?: string | null; giftListId?: string; giverName?: string; locale?: "it" | "en"; status?: OrderStatus },
) {
  const order = await createOrder(db, {
    idempotencyKey: crypto.randomUUID(),
    userId: buyer.userId ?? null,
    status: buyer.status ?? "paid",
    locale: buyer.locale ?? "it",
    email: buyer.email,
    phone: "+39 333 000 0000",
    firstName: "Maria",
    lastName: "Rossi",
    deliveryMethod: "collection",
    paymentMethod: "card",
    subtotalCents: 1000,
    totalCents: 1000,
    giftListId: buyer.giftListId ?? null,
    giverName: buyer.giverName ?? null,
    createdAt: new Date(),
    lines: [{ variantId, sku: `V-${variantId}`, name: "Marsupio", quantity: 1, listPriceCents: 1000, unitPriceCents: 1000, lineTotalCents: 1000 }],
    placed: { note: "order-placed", actorUserId: null },
  });
  return order!;
}

const recallMails = (db: Db) => db.select().from(outboxEmails).where(eq(outboxEmails.kind, "product-recall"));

// The first test of the file also pays for loading the cart, gift-list and catalogue modules.
test(
  "a recalled variant is no longer sold: the cart and the gift lists refuse it, its page shows it unavailable with the notice",
  { timeout: 60_000 },
  async () => {
    const db = await openDb();
    const { productId, variantIds } = await createProduct(db, {
      variants: [
        { colour: "blue", stock: 5 },
        { colour: "black", stock: 5 },
      ],
    });
    const recalled = await recallProduct(db, { productId, input: notice([variantIds[0]!]), actorUserId: null });
    expect(recalled.ok).toBe(true);

    expect(await addToCart(db, { cartId: null, variantId: variantIds[0]!, quantity: 1, personalisation: {} })).toMatchObject({
      ok: false,
      error: "recalled",
    });
    expect(await addToCart(db, { cartId: null, variantId: variantIds[1]!, quantity: 1, personalisation: {} })).toMatchObject({ ok: true });
    const list = await createGiftList(db, []);
    const added = await addProductToGiftList(db, {
      userId: list.ownerUserId,
      input: { giftListId: list.id, variantId: String(variantIds[0]), quantity: "1" },
    });
    expect(added).toMatchObject({ ok: false, error: "not-for-sale" });

    const page = await getProductPage(db, productId, "en", new Date());
    expect(page!.variants.map((variant) => [variant.colour, variant.stock, variant.isRecalled])).toEqual([
      ["blue", 0, true],
      ["black", 5, false],
    ]);
    expect(page!.recalls).toEqual([
      expect.objectContaining({
        hazard: "The strap may come loose: fall hazard.",
        whatToDo: "Stop using the product at once.",
        remedy: "Full refund or free replacement.",
        variantIds: [variantIds[0]],
      }),
    ]);
  },
);

test("recalling a variant twice is refused with a clear message and changes nothing", async () => {
  const db = await openDb();
  const { productId, variantIds } = await createProduct(db, { variants: [{ colour: "blue" }, { colour: "black" }] });
  expect((await recallProduct(db, { productId, input: notice(), actorUserId: null })).ok).toBe(true);
  expect(await recallProduct(db, { productId, input: notice([variantIds[1]!]), actorUserId: null })).toEqual({
    ok: false,
    errors: { form: "productSafety.errors.alreadyRecalled" },
  });
  expect(await db.select().from(productRecalls)).toHaveLength(1);
});

test("a variant of another product, or a notice without its texts, is refused and nothing is recalled", async () => {
  const db = await openDb();
  const { productId } = await createProduct(db);
  const other = await createProduct(db);
  expect(await recallProduct(db, { productId, input: notice([other.variantId]), actorUserId: null })).toEqual({
    ok: false,
    errors: { variantIds: "productSafety.errors.invalid" },
  });
  expect(RecallInput.safeParse({ ...notice(), hazardEn: "  " }).success).toBe(false);
  expect(await db.select().from(productRecalls)).toHaveLength(0);
  expect(await addToCart(db, { cartId: null, variantId: other.variantId, quantity: 1, personalisation: {} })).toMatchObject({ ok: true });
});

test("every buyer of a recalled variant is listed and told once: customers, guests, gift-list givers and the lists' owners", async () => {
  const db = await openDb();
  const { productId, variantIds } = await createProduct(db, { variants: [{ colour: "blue" }, { colour: "black" }] });
  const customerId = await createUser(db);
  const [customer] = await db.select({ email: users.email }).from(users).where(eq(users.id, customerId));
  const list = await createGiftList(db, []);
  const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, list.ownerUserId));

  await sell(db, variantIds[0]!, { email: customer!.email, userId: customerId });
  await sell(db, variantIds[0]!, { email: customer!.email, userId: customerId });
  await sell(db, variantIds[0]!, { email: "Guest@Example.com", locale: "en" });
  await sell(db, variantIds[0]!, { email: "giver@example.com", giftListId: list.id, giverName: "Zia Anna" });
  await sell(db, variantIds[0]!, { email: "cancelled@example.com", status: "cancelled" });
  await sell(db, variantIds[1]!, { email: "other-colour@example.com" });

  const recalled = await recallProduct(db, { productId, input: notice([variantIds[0]!]), actorUserId: null });
  if (!recalled.ok) throw new Error("recall refused");
  expect(await listRecallSales(db, recalled.recallId)).toHaveLength(4);
  const recipients = await listRecallRecipients(db, recalled.recallId);
  const byEmail = (a: { email: string }, b: { email: string }) => a.email.localeCompare(b.email);
  expect(recipients.sort(byEmail).map((recipient) => [recipient.email, recipient.kinds, recipient.notifiedAt])).toEqual(
    [
      { email: customer!.email, kinds: ["customer"] },
      { email: "guest@example.com", kinds: ["guest"] },
      { email: "giver@example.com", kinds: ["gift-list-giver"] },
      { email: owner!.email, kinds: ["gift-list-owner"] },
    ]
      .sort(byEmail)
      .map((recipient) => [recipient.email, recipient.kinds, null]),
  );
  expect(recipients.find((recipient) => recipient.email === customer!.email)!.orderNumbers).toHaveLength(2);

  const now = new Date("2026-11-28T10:00:00Z");
  expect(await sendRecallNotices(db, { recallId: recalled.recallId, publicUrl: testPublicUrl, actorUserId: null, now })).toEqual({
    ok: true,
    sent: 4,
    alreadyTold: 0,
  });
  const mails = await recallMails(db);
  expect(mails.map((mail) => mail.toAddress).sort()).toEqual([customer!.email, "giver@example.com", "guest@example.com", owner!.email].sort());
  const english = mails.find((mail) => mail.toAddress === "guest@example.com")!;
  expect(english.subject).toMatch(/^Safety recall: Product \d+$/);
  expect(english.textBody).toContain("The strap may come loose: fall hazard.");
  expect(english.textBody).toContain("Full refund or free replacement.");
  expect(english.textBody).toContain(`${testPublicUrl}/en/product/${productId}`);
  const italian = mails.find((mail) => mail.toAddress === "giver@example.com")!;
  expect(italian.subject).toMatch(/^Richiamo di sicurezza: Prodotto \d+$/);
  expect(italian.textBody).toContain("Smettere subito di usare il prodotto.");
  expect((await listRecallRecipients(db, recalled.recallId)).every((recipient) => recipient.notifiedAt?.getTime() === now.getTime())).toBe(true);

  // Asked again: nobody already told gets a second mail.
  expect(await sendRecallNotices(db, { recallId: recalled.recallId, publicUrl: testPublicUrl, actorUserId: null })).toEqual({
    ok: true,
    sent: 0,
    alreadyTold: 4,
  });
  expect(await recallMails(db)).toHaveLength(4);
});
