import { onTestFinished, expect, test } from "vitest";
import { auditLog } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { parseListingQuery } from "./listing";
import { getListing } from "./listing.service";
import { getProductPage } from "./product.service";
import { ProductSpecsForm, ProductSpecsInput } from "./product-specs.inputs";
import { getProductSpecs, setProductSpecs } from "./product-specs.service";
import { readCatalogueVersion } from "./catalogue-cache";

const now = new Date("2026-11-28T10:00:00Z");

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

/** A car-seat form as the browser sends it, with overrides. */
const seatForm = (fields: Record<string, string> = {}) => ({
  kind: "car_seat",
  statureMinCm: "40",
  statureMaxCm: "105",
  r44Group: "",
  hasIsofix: "yes",
  rotates360: "yes",
  ageMinMonths: "0",
  ageMaxMonths: "48",
  maxChildWeightGrams: "18,5",
  weightGrams: "",
  foldedLengthCm: "",
  foldedWidthCm: "",
  foldedHeightCm: "",
  isFromBirth: "",
  isCarrycotCompatible: "",
  ...fields,
});

const seat = (fields: Record<string, string> = {}) => ProductSpecsInput.parse(seatForm(fields));

test("a car seat's specifications are saved, shown on its page and recorded in the audit log", async () => {
  const db = await openDb();
  const adminId = await createAdminUser(db);
  const { productId } = await createProduct(db);
  const before = await readCatalogueVersion(db);

  expect(await setProductSpecs(db, { productId, specs: seat(), actorUserId: adminId })).toEqual({ ok: true, changed: true });

  expect(await getProductSpecs(db, productId)).toMatchObject({
    kind: "car_seat",
    statureMinCm: 40,
    statureMaxCm: 105,
    hasIsofix: true,
    maxChildWeightGrams: 18500,
  });
  const page = await getProductPage(db, productId, "it", now);
  expect(page?.specs).toMatchObject({ kind: "car_seat", statureMinCm: 40, statureMaxCm: 105, rotates360: true, weightGrams: null });
  // Kept pages and the facet index follow the catalogue's version.
  expect(await readCatalogueVersion(db)).not.toBe(before);
  const audit = await db.select().from(auditLog);
  expect(audit.map((row) => row.action)).toEqual(["product.specs"]);

  // The same form again writes nothing.
  expect(await setProductSpecs(db, { productId, specs: seat(), actorUserId: adminId })).toEqual({ ok: true, changed: false });
  expect(await db.select().from(auditLog)).toHaveLength(1);

  // "No specifications" removes them: the page shows no table.
  expect(await setProductSpecs(db, { productId, specs: ProductSpecsForm.parse({ kind: "" }), actorUserId: adminId })).toMatchObject({ ok: true });
  expect((await getProductPage(db, productId, "it", now))?.specs).toBeNull();
});

test("a product that does not exist is refused and nothing is written", async () => {
  const db = await openDb();
  expect(await setProductSpecs(db, { productId: 999_999, specs: seat(), actorUserId: null })).toEqual({ ok: false, notFound: true });
  expect(await db.select().from(auditLog)).toHaveLength(0);
});

test("the form refuses implausible numbers and a minimum above its maximum, with a message per field", () => {
  const errors = (fields: Record<string, string>) =>
    ProductSpecsInput.safeParse(seatForm(fields)).error?.issues.map((issue) => [issue.path.join("."), issue.message]) ?? [];
  expect(errors({ statureMinCm: "110", statureMaxCm: "105" })).toEqual([["statureMaxCm", "productSpecs.errors.minAboveMax"]]);
  expect(errors({ statureMinCm: "20" })).toEqual([["statureMinCm", "productSpecs.errors.outOfRange"]]);
  expect(errors({ ageMaxMonths: "12.5" })).toEqual([["ageMaxMonths", "productSpecs.errors.outOfRange"]]);
  expect(errors({ maxChildWeightGrams: "900" })).toEqual([["maxChildWeightGrams", "productSpecs.errors.outOfRange"]]);
  expect(errors({ r44Group: "4" })).toEqual([["r44Group", "productSpecs.errors.r44Group"]]);
  expect(errors({ hasIsofix: "maybe" })).toEqual([["hasIsofix", "productSpecs.errors.invalid"]]);
  expect(errors({ kind: "pram" })).toEqual([["kind", "productSpecs.errors.invalid"]]);
  expect(seat({ r44Group: " 0+ / 1 " }).r44Group).toBe("0+/1");
});

test("a stroller keeps only a stroller's fields, and its folded size needs all three measures", () => {
  const stroller = ProductSpecsInput.parse(
    seatForm({
      kind: "stroller",
      weightGrams: "7.2",
      foldedLengthCm: "56",
      foldedWidthCm: "30",
      foldedHeightCm: "57",
      isFromBirth: "yes",
      isCarrycotCompatible: "no",
    }),
  );
  expect(stroller).toMatchObject({
    kind: "stroller",
    statureMinCm: null,
    hasIsofix: null,
    weightGrams: 7200,
    foldedWidthCm: 30,
    isFromBirth: true,
    isCarrycotCompatible: false,
  });
  expect(ProductSpecsInput.safeParse(seatForm({ kind: "stroller", foldedLengthCm: "56" })).error?.issues[0]?.message).toBe(
    "productSpecs.errors.foldedAllThree",
  );
});

test("the listing keeps the seats whose range covers the child's height, with ISOFIX and rotation counted", async () => {
  const db = await openDb();
  const shop = { kind: "shop", layout: "grid" } as const;
  const infant = await createProduct(db, { nameIt: "Ovetto" });
  const swivel = await createProduct(db, { nameIt: "Girevole" });
  const booster = await createProduct(db, { nameIt: "Booster" });
  const stroller = await createProduct(db, { nameIt: "Passeggino" });
  await createProduct(db, { nameIt: "Bavaglino" });
  await setProductSpecs(db, {
    productId: infant.productId,
    specs: seat({ statureMaxCm: "87", hasIsofix: "no", rotates360: "no", ageMaxMonths: "15" }),
    actorUserId: null,
  });
  await setProductSpecs(db, { productId: swivel.productId, specs: seat(), actorUserId: null });
  await setProductSpecs(db, {
    productId: booster.productId,
    specs: seat({ statureMinCm: "100", statureMaxCm: "150", rotates360: "no", ageMinMonths: "42", ageMaxMonths: "144" }),
    actorUserId: null,
  });
  await setProductSpecs(db, {
    productId: stroller.productId,
    specs: ProductSpecsInput.parse(seatForm({ kind: "stroller", ageMinMonths: "6", ageMaxMonths: "48" })),
    actorUserId: null,
  });
  const names = async (query: string) => {
    const listing = await getListing(db, { scope: shop, query: parseListingQuery(new URLSearchParams(query)), locale: "it", now });
    return { names: listing!.products.map((product) => product.name).sort(), total: listing!.total, specCounts: listing!.specCounts };
  };

  expect(await names("")).toMatchObject({ total: 5, specCounts: { described: 4, isofix: 2, rotation: 1 } });
  expect(await names("height=80")).toEqual({ names: ["Girevole", "Ovetto"], total: 2, specCounts: { described: 4, isofix: 1, rotation: 1 } });
  expect(await names("height=105")).toMatchObject({ names: ["Booster", "Girevole"] });
  expect(await names("height=80&isofix=true")).toMatchObject({ names: ["Girevole"], total: 1 });
  expect(await names("rotation=true")).toMatchObject({ names: ["Girevole"] });
  // Age applies to strollers too.
  expect(await names("age=44")).toMatchObject({ names: ["Booster", "Girevole", "Passeggino"] });
  expect(await names("age=3")).toMatchObject({ names: ["Girevole", "Ovetto"] });
  expect(await names("height=151")).toMatchObject({ total: 5 });
});
