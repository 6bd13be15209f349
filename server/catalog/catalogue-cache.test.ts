import { eq, sql } from "drizzle-orm";
import { expect, onTestFinished, test, vi } from "vitest";
import { createAdminUser, productForm, seedTaxonomy } from "#tests/fixtures/admin.fixtures.ts";
import { parseProductForm, parseWith, VariantInput } from "#server/admin/product-admin.inputs.ts";
import { createProduct, updateProduct } from "#server/admin/product-admin.service.ts";
import { addVariant } from "#server/admin/product-stock.service.ts";
import { connectPostgres } from "#server/db/client.ts";
import { products, productVariants } from "#server/db/schema.ts";
import { setStockTo } from "#server/stock/stock-ledger.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { withDatabase } from "#tests/db.global-setup.ts";
import { addToCart } from "#server/cart/cart.service.ts";
import { getCartView } from "#server/cart/cart-view.service.ts";
import { createCatalogueCache, readContentVersions, readingVersionsOnce, settleMs } from "./catalogue-cache";
import { getProductPage } from "./product.service";

const now = new Date("2026-03-10T10:00:00Z");
const slow = { timeout: 90_000 };

function input(overrides: Record<string, string> = {}) {
  const parsed = parseProductForm(productForm(overrides));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.input;
}

async function openShop() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  await seedTaxonomy(handle.db);
  const adminId = await createAdminUser(handle.db);
  const created = await createProduct(handle.db, { input: input(), actorUserId: adminId, now });
  if (!created.ok) throw new Error("product refused");
  const variant = parseWith(VariantInput, { colourId: "", size: "TAGLIA_UNICA", sku: "BFE-TEST-1-U", stock: "5", isPreorder: "", preorderDays: "" });
  if (!variant.ok) throw new Error("variant refused");
  await addVariant(handle.db, { productId: created.productId, input: variant.input, actorUserId: adminId });
  return { db: handle.db, adminId, productId: created.productId };
}

test("a kept answer is served until the back office changes a product, then computed again", slow, async () => {
  const { db, adminId, productId } = await openShop();
  const cache = createCatalogueCache<string>({ maxAgeMs: 60_000, maxEntries: 10 });
  let computed = 0;
  const nameNow = async () => {
    computed++;
    return (await getProductPage(db, productId, "it", now))!.name;
  };

  expect(await cache.get(db, "it", nameNow)).toBe("Passeggino Vesuvio");
  expect(await cache.get(db, "it", nameNow)).toBe("Passeggino Vesuvio");
  expect(computed).toBe(1);

  const saved = await updateProduct(db, { productId, input: input({ nameIt: "Passeggino Capri" }), actorUserId: adminId, now });
  expect(saved.ok).toBe(true);
  expect(await cache.get(db, "it", nameNow)).toBe("Passeggino Capri");
  expect(computed).toBe(2);
});

test("stock alone does not drop a kept answer; its age does", slow, async () => {
  const { db, productId } = await openShop();
  // An answer's age is read from the clock: only Date is faked, the database's own timers keep running.
  vi.useFakeTimers({ toFake: ["Date"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  const cache = createCatalogueCache<number>({ maxAgeMs: 300, maxEntries: 10 });
  const stockNow = async () => (await getProductPage(db, productId, "it", now))!.variants[0]!.stock;

  expect(await cache.get(db, "stock", stockNow)).toBe(5);
  // A sale changes the stock of the size, nothing else.
  const [variant] = await db.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, productId));
  await setStockTo(db, { variantId: variant!.id, stock: 4 }, { reason: "Venduto in negozio" });
  expect(await cache.get(db, "stock", stockNow)).toBe(5);
  vi.setSystemTime(Date.now() + 350);
  expect(await cache.get(db, "stock", stockNow)).toBe(4);
});

test("concurrent callers share one computation; a failed one is not kept", slow, async () => {
  const { db } = await openShop();
  const cache = createCatalogueCache<number>({ maxAgeMs: 60_000, maxEntries: 10 });
  let computed = 0;
  // Unfinished until released: the callers asking meanwhile get this same computation.
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const slowCount = async () => {
    computed++;
    await finished;
    return (await db.select({ id: products.id }).from(products)).length;
  };
  const answers = Promise.all([cache.get(db, "n", slowCount), cache.get(db, "n", slowCount), cache.get(db, "n", slowCount)]);
  await vi.waitFor(() => expect(computed).toBe(1));
  finish();
  expect(await answers).toEqual([1, 1, 1]);
  expect(computed).toBe(1);

  await expect(cache.get(db, "broken", () => Promise.reject(new Error("database gone")))).rejects.toThrow("database gone");
  expect(await cache.get(db, "broken", async () => 7)).toBe(7);
});

testOnPostgres("a change made through another app process's connection drops the kept answer too", slow, async () => {
  const { db, adminId, productId } = await openShop();
  const [{ name }] = (await db.select({ name: sql<string>`current_database()` }).from(sql`(select 1) as database`)) as [{ name: string }];
  const otherProcess = connectPostgres(withDatabase(process.env.TEST_DATABASE_URL!, name), 1);
  onTestFinished(() => otherProcess.close());
  const cache = createCatalogueCache<string>({ maxAgeMs: 60_000, maxEntries: 10 });
  const nameNow = async () => (await getProductPage(db, productId, "it", now))!.name;

  expect(await cache.get(db, "it", nameNow)).toBe("Passeggino Vesuvio");
  await updateProduct(otherProcess.db, { productId, input: input({ nameIt: "Passeggino Ischia" }), actorUserId: adminId, now });
  expect(await cache.get(db, "it", nameNow)).toBe("Passeggino Ischia");
});

test("answers that show stock are dropped by a sale; those computed in the second after a change are not kept", slow, async () => {
  const { db, productId } = await openShop();
  vi.useFakeTimers({ toFake: ["Date"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  const cache = createCatalogueCache<number>({ maxAgeMs: 60_000, maxEntries: 10, watches: "catalogue and page content" });
  let computed = 0;
  const stockOf = async (keys: string[]) => {
    computed++;
    const page = (await getProductPage(db, productId, "it", now))!;
    return new Map(keys.map((key) => [key, page.variants[0]!.stock]));
  };

  expect(await cache.getMany(db, ["a", "b"], stockOf)).toEqual([5, 5]);
  expect(await cache.getMany(db, ["a", "b"], stockOf)).toEqual([5, 5]);
  expect(computed).toBe(1);

  const [variant] = await db.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, productId));
  await setStockTo(db, { variantId: variant!.id, stock: 4 }, { reason: "Venduto in negozio" });
  expect(await cache.getMany(db, ["a", "b"], stockOf)).toEqual([4, 4]);
  expect(await cache.getMany(db, ["a"], stockOf)).toEqual([4]);
  expect(computed).toBe(3);
  vi.setSystemTime(Date.now() + settleMs);
  expect(await cache.getMany(db, ["a", "b"], stockOf)).toEqual([4, 4]);
  expect(await cache.getMany(db, ["b", "a"], stockOf)).toEqual([4, 4]);
  expect(computed).toBe(4);
});

test("a request that writes nothing reads the versions once: a change committed during it shows from the next request", slow, async () => {
  const { db, adminId, productId } = await openShop();
  const before = await readContentVersions(db);
  await readingVersionsOnce(async () => {
    const first = await readContentVersions(db);
    await updateProduct(db, { productId, input: input({ nameIt: "Passeggino Procida" }), actorUserId: adminId, now });
    expect(await readContentVersions(db)).toEqual(first);
  });
  const after = await readContentVersions(db);
  expect(after.catalogue).not.toBe(before.catalogue);
  expect(await readingVersionsOnce(() => readContentVersions(db))).toEqual(after);
});

test("a sequence never called still shows its first change: the versions count the calls", slow, async () => {
  const { db, productId } = await openShop();
  // As in a database filled with its triggers off: neither sequence was ever called.
  await db.execute(sql`select setval('catalogue_version', 1, false), setval('page_content_version', 1, false)`);
  const before = await readContentVersions(db);
  const [variant] = await db.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, productId));
  await setStockTo(db, { variantId: variant!.id, stock: 4 }, { reason: "Venduto in negozio" });
  await db.update(products).set({ nameIt: "Passeggino Ischia" }).where(eq(products.id, productId));
  const after = await readContentVersions(db);
  expect(after.pageContent).not.toBe(before.pageContent);
  expect(after.catalogue).not.toBe(before.catalogue);
});

test("a cart's lines and the product page, kept for the pages, show a new price and a sale at the next read", slow, async () => {
  const { db, adminId, productId } = await openShop();
  const [variant] = await db.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, productId));
  vi.useFakeTimers({ toFake: ["Date"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  const added = await addToCart(db, { cartId: null, variantId: variant!.id, quantity: 1, personalisation: {} });
  if (!added.ok) throw new Error(added.error);
  const shown = async () => {
    const [cart, page] = await Promise.all([getCartView(db, { cartId: added.cartId, locale: "it", now }), getProductPage(db, productId, "it", now)]);
    return {
      line: { unitCents: cart.lines[0]!.unitCents, stock: cart.lines[0]!.stock },
      page: { price: page!.priceCents, stock: page!.variants[0]!.stock },
    };
  };
  expect(await shown()).toEqual({ line: { unitCents: 19_990, stock: 5 }, page: { price: 19_990, stock: 5 } });
  expect(await shown()).toEqual({ line: { unitCents: 19_990, stock: 5 }, page: { price: 19_990, stock: 5 } });

  await updateProduct(db, { productId, input: input({ price: "149,00" }), actorUserId: adminId, now });
  expect(await shown()).toEqual({ line: { unitCents: 14_900, stock: 5 }, page: { price: 14_900, stock: 5 } });
  // Past the second after the change: the answers read now are kept, and the sale must drop them.
  vi.setSystemTime(Date.now() + settleMs);
  expect(await shown()).toEqual({ line: { unitCents: 14_900, stock: 5 }, page: { price: 14_900, stock: 5 } });
  await setStockTo(db, { variantId: variant!.id, stock: 2 }, { reason: "Venduto in negozio" });
  expect(await shown()).toEqual({ line: { unitCents: 14_900, stock: 2 }, page: { price: 14_900, stock: 2 } });
});
