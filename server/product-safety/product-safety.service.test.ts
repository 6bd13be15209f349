import { eq } from "drizzle-orm";
import { onTestFinished, expect, test } from "vitest";
import { getProductPage } from "#server/catalog/product.service.ts";
import { brands, productBrands, safetyContacts } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { ProductSafetyInput, SafetyContactInput, SafetyWarningInput, parseSafetyForm } from "./product-safety.inputs";
import {
  countProductsMissingSafetyData,
  getProductSafetyForm,
  listSafetyGaps,
  saveSafetyContact,
  saveSafetyWarning,
  setBrandSafety,
  setProductSafety,
} from "./product-safety.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const contact = (fields: Record<string, string> = {}) =>
  SafetyContactInput.parse({
    role: "manufacturer",
    name: "Nordwald Kindertechnik GmbH",
    postalAddress: "Am Hafen 4, 95030 Hof, Deutschland",
    countryCode: "de",
    email: "Safety@Nordwald.example",
    ...fields,
  });

async function idOf(result: Awaited<ReturnType<typeof saveSafetyContact>>) {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.id;
}

test("a product takes its brand's manufacturer and shows it with its warnings in the page's language", async () => {
  const db = await openDb();
  const { productId } = await createProduct(db);
  const [brand] = await db.insert(brands).values({ slug: "nordwald", name: "Nordwald" }).returning({ id: brands.id });
  await db.insert(productBrands).values({ productId, brandId: brand!.id });
  const manufacturerId = await idOf(await saveSafetyContact(db, { id: null, input: contact(), actorUserId: null }));
  expect((await setBrandSafety(db, { input: { brandId: brand!.id, manufacturerId, responsiblePersonId: null }, actorUserId: null })).ok).toBe(true);
  const warning = await saveSafetyWarning(db, {
    id: null,
    input: SafetyWarningInput.parse({
      code: "never-unattended",
      textIt: "Non lasciare mai il bambino incustodito.",
      textEn: "Never leave the child unattended.",
    }),
    actorUserId: null,
  });
  if (!warning.ok) throw new Error("warning refused");
  expect(await listSafetyGaps(db, { productIds: [productId] })).toEqual(new Map([[productId, ["warnings"]]]));
  expect((await getProductSafetyForm(db, productId))!.effective).toEqual({ manufacturerId, responsiblePersonId: null });

  const saved = await setProductSafety(db, {
    productId,
    input: ProductSafetyInput.parse({ manufacturerId: "", responsiblePersonId: "", modelNumber: " NW-200 ", warningIds: [String(warning.id)] }),
    actorUserId: null,
  });
  expect(saved.ok).toBe(true);
  expect(await listSafetyGaps(db, { productIds: [productId] })).toEqual(new Map());

  const italian = await getProductPage(db, productId, "it", new Date());
  expect(italian!.safety).toMatchObject({
    manufacturer: {
      name: "Nordwald Kindertechnik GmbH",
      postalAddress: "Am Hafen 4, 95030 Hof, Deutschland",
      countryCode: "DE",
      email: "safety@nordwald.example",
    },
    responsiblePerson: null,
    modelNumber: "NW-200",
    warnings: ["Non lasciare mai il bambino incustodito."],
  });
  expect((await getProductPage(db, productId, "en", new Date()))!.safety.warnings).toEqual(["Never leave the child unattended."]);
});

test("a manufacturer outside the EU is flagged until the product or its brand has an EU responsible person", async () => {
  const db = await openDb();
  const { productId } = await createProduct(db);
  const manufacturerId = await idOf(
    await saveSafetyContact(db, {
      id: null,
      input: contact({ name: "Shenzhen Bright Cradle", postalAddress: "Longgang, Shenzhen", countryCode: "CN" }),
      actorUserId: null,
    }),
  );
  const personId = await idOf(
    await saveSafetyContact(db, {
      id: null,
      input: contact({ role: "responsible_person", name: "EuroSafe S.r.l.", postalAddress: "Corso Vercelli 40, 20145 Milano", countryCode: "IT" }),
      actorUserId: null,
    }),
  );
  const safety = (fields: Record<string, unknown>) =>
    ProductSafetyInput.parse({ manufacturerId: "", responsiblePersonId: "", modelNumber: "", warningIds: [], ...fields });
  await setProductSafety(db, { productId, input: safety({ manufacturerId: String(manufacturerId) }), actorUserId: null });
  expect((await listSafetyGaps(db, { productIds: [productId] })).get(productId)).toEqual(["responsible-person", "warnings"]);
  await setProductSafety(db, {
    productId,
    input: safety({ manufacturerId: String(manufacturerId), responsiblePersonId: String(personId) }),
    actorUserId: null,
  });
  expect((await listSafetyGaps(db, { productIds: [productId] })).get(productId)).toEqual(["warnings"]);
  expect(await countProductsMissingSafetyData(db)).toBe(1);
});

test("a manufacturer without its postal address is refused with a clear message and nothing is saved", async () => {
  const db = await openDb();
  const parsed = parseSafetyForm(SafetyContactInput, {
    role: "manufacturer",
    name: "Senza Indirizzo S.r.l.",
    postalAddress: "  ",
    countryCode: "IT",
    email: "a@b.example",
  });
  expect(parsed).toEqual({ ok: false, errors: { postalAddress: "productSafety.errors.required" } });
  expect(parseSafetyForm(SafetyContactInput, { ...contact(), email: "not-an-address" })).toEqual({
    ok: false,
    errors: { email: "productSafety.errors.email" },
  });
  expect(await db.select().from(safetyContacts)).toHaveLength(0);
});

test("a contact chosen in the wrong role, or a name used twice, is refused", async () => {
  const db = await openDb();
  const { productId } = await createProduct(db);
  const manufacturerId = await idOf(await saveSafetyContact(db, { id: null, input: contact(), actorUserId: null }));
  expect(await saveSafetyContact(db, { id: null, input: contact(), actorUserId: null })).toEqual({
    ok: false,
    errors: { name: "productSafety.errors.nameTaken" },
  });
  const wrongRole = await setProductSafety(db, {
    productId,
    input: ProductSafetyInput.parse({ manufacturerId: "", responsiblePersonId: String(manufacturerId), modelNumber: "", warningIds: [] }),
    actorUserId: null,
  });
  expect(wrongRole).toEqual({ ok: false, errors: { responsiblePersonId: "productSafety.errors.invalid" } });
  const [row] = await db.select({ id: safetyContacts.id }).from(safetyContacts).where(eq(safetyContacts.id, manufacturerId));
  expect(row).toBeDefined();
});
