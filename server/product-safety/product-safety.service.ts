/**
 * Product safety records (GPSR article 19): manufacturers and EU responsible persons kept once and chosen per
 * brand (a product takes its first brand's unless it names its own), reusable warnings, a product's model
 * number and warnings. The only writer of safety_contacts, safety_warnings, product_safety_warnings and of
 * the safety columns of brands and products. docs/decisions/0088-product-safety-data.md.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { recordAudit } from "#server/admin/audit.service.ts";
import { isUniqueViolation } from "#server/admin/product-admin.service.ts";
import type { Db } from "#server/db/client.ts";
import { brands, productBrands, productSafetyWarnings, products, safetyContacts, safetyWarnings } from "#server/db/schema.ts";
import { findSafetyGaps, type SafetyGap } from "./product-safety";
import type {
  BrandSafetyInput,
  FieldErrors,
  ProductSafetyInput,
  SafetyContactInput,
  SafetyContactRole,
  SafetyWarningInput,
} from "./product-safety.inputs";

export type SaveResult = { ok: true; id: number } | { ok: false; errors: FieldErrors } | { ok: false; notFound: true };

/**
 * The contact of `role` that applies to the product of the outer query: its own, else its first brand's.
 * The one place the rule is written; the product page, the feed, the back office and the checklist read it.
 */
export function effectiveContactIdSql(role: SafetyContactRole): SQL<number | null> {
  // Qualified by hand: Drizzle leaves a one-table query's columns unqualified, and inside the sub-select an
  // unqualified "id" would be the brand's.
  const column = sql.identifier(role === "manufacturer" ? "manufacturer_id" : "responsible_person_id");
  return sql<
    number | null
  >`coalesce("products".${column}, (select safety_brand.${column} from ${productBrands} as safety_link join ${brands} as safety_brand on safety_brand.id = safety_link.brand_id where safety_link.product_id = "products"."id" order by safety_link.position, safety_brand.id limit 1))`;
}

// ---------------------------------------------------------------- contacts

export type SafetyContactRow = typeof safetyContacts.$inferSelect;

export async function listSafetyContacts(db: Db): Promise<SafetyContactRow[]> {
  return db.select().from(safetyContacts).orderBy(asc(safetyContacts.role), asc(safetyContacts.name));
}

/** Creates (`id` null) or changes a manufacturer or responsible person; a name is used once per role. */
export async function saveSafetyContact(
  db: Db,
  args: { id: number | null; input: SafetyContactInput; actorUserId: string | null },
): Promise<SaveResult> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = args.id
        ? await tx.update(safetyContacts).set(args.input).where(eq(safetyContacts.id, args.id)).returning({ id: safetyContacts.id })
        : await tx.insert(safetyContacts).values(args.input).returning({ id: safetyContacts.id });
      if (!row) return { ok: false as const, notFound: true as const };
      await recordAudit(tx, {
        actorUserId: args.actorUserId,
        action: args.id ? "safety-contact.update" : "safety-contact.create",
        entity: "safety-contact",
        entityId: row.id,
        details: { role: args.input.role, name: args.input.name },
      });
      return { ok: true as const, id: row.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { name: "productSafety.errors.nameTaken" } };
    throw error;
  }
}

// ---------------------------------------------------------------- warnings

export type SafetyWarningRow = typeof safetyWarnings.$inferSelect;

export async function listSafetyWarnings(db: Db): Promise<SafetyWarningRow[]> {
  return db.select().from(safetyWarnings).orderBy(asc(safetyWarnings.code));
}

export async function saveSafetyWarning(
  db: Db,
  args: { id: number | null; input: SafetyWarningInput; actorUserId: string | null },
): Promise<SaveResult> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = args.id
        ? await tx.update(safetyWarnings).set(args.input).where(eq(safetyWarnings.id, args.id)).returning({ id: safetyWarnings.id })
        : await tx.insert(safetyWarnings).values(args.input).returning({ id: safetyWarnings.id });
      if (!row) return { ok: false as const, notFound: true as const };
      await recordAudit(tx, {
        actorUserId: args.actorUserId,
        action: args.id ? "safety-warning.update" : "safety-warning.create",
        entity: "safety-warning",
        entityId: row.id,
        details: { code: args.input.code },
      });
      return { ok: true as const, id: row.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { code: "productSafety.errors.codeTaken" } };
    throw error;
  }
}

// ---------------------------------------------------------------- brands and products

/** Contacts named by a form must exist and have the role of the field they were chosen in. */
async function checkContactRoles(db: Db, chosen: { manufacturerId: number | null; responsiblePersonId: number | null }): Promise<FieldErrors> {
  const wanted = [chosen.manufacturerId, chosen.responsiblePersonId].filter((id): id is number => id !== null);
  if (wanted.length === 0) return {};
  const rows = await db.select({ id: safetyContacts.id, role: safetyContacts.role }).from(safetyContacts).where(inArray(safetyContacts.id, wanted));
  const roleOf = new Map(rows.map((row) => [row.id, row.role]));
  const errors: FieldErrors = {};
  if (chosen.manufacturerId !== null && roleOf.get(chosen.manufacturerId) !== "manufacturer") errors.manufacturerId = "productSafety.errors.invalid";
  if (chosen.responsiblePersonId !== null && roleOf.get(chosen.responsiblePersonId) !== "responsible_person") {
    errors.responsiblePersonId = "productSafety.errors.invalid";
  }
  return errors;
}

export type BrandSafetyRow = { id: number; name: string; manufacturerId: number | null; responsiblePersonId: number | null };

export async function listBrandSafety(db: Db): Promise<BrandSafetyRow[]> {
  return db
    .select({ id: brands.id, name: brands.name, manufacturerId: brands.manufacturerId, responsiblePersonId: brands.responsiblePersonId })
    .from(brands)
    .orderBy(asc(brands.name));
}

export async function setBrandSafety(db: Db, args: { input: BrandSafetyInput; actorUserId: string | null }): Promise<SaveResult> {
  const { brandId, manufacturerId, responsiblePersonId } = args.input;
  const errors = await checkContactRoles(db, { manufacturerId, responsiblePersonId });
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return db.transaction(async (tx) => {
    const [row] = await tx.update(brands).set({ manufacturerId, responsiblePersonId }).where(eq(brands.id, brandId)).returning({ id: brands.id });
    if (!row) return { ok: false as const, notFound: true as const };
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "brand.safety",
      entity: "brand",
      entityId: brandId,
      details: { manufacturerId, responsiblePersonId },
    });
    return { ok: true as const, id: brandId };
  });
}

export type ProductSafetyForm = {
  productId: number;
  name: string;
  values: { manufacturerId: number | null; responsiblePersonId: number | null; modelNumber: string | null; warningIds: number[] };
  /** What the product shows with these values: its own contacts, else its brand's. */
  effective: { manufacturerId: number | null; responsiblePersonId: number | null };
  gaps: SafetyGap[];
  manualStorageKey: string | null;
};

/** A product's own safety values, what applies to it and what it lacks; null when there is no such product. */
export async function getProductSafetyForm(db: Db, productId: number): Promise<ProductSafetyForm | null> {
  const [row] = await db
    .select({
      name: products.nameIt,
      manufacturerId: products.manufacturerId,
      responsiblePersonId: products.responsiblePersonId,
      modelNumber: products.modelNumber,
      manualStorageKey: products.manualStorageKey,
      effectiveManufacturerId: effectiveContactIdSql("manufacturer"),
      effectiveResponsiblePersonId: effectiveContactIdSql("responsible_person"),
    })
    .from(products)
    .where(eq(products.id, productId));
  if (!row) return null;
  const warnings = await db
    .select({ warningId: productSafetyWarnings.warningId })
    .from(productSafetyWarnings)
    .where(eq(productSafetyWarnings.productId, productId))
    .orderBy(asc(productSafetyWarnings.position));
  const gaps = (await listSafetyGaps(db, { productIds: [productId] })).get(productId) ?? [];
  return {
    productId,
    name: row.name,
    values: {
      manufacturerId: row.manufacturerId,
      responsiblePersonId: row.responsiblePersonId,
      modelNumber: row.modelNumber,
      warningIds: warnings.map((warning) => warning.warningId),
    },
    effective: { manufacturerId: row.effectiveManufacturerId, responsiblePersonId: row.effectiveResponsiblePersonId },
    gaps,
    manualStorageKey: row.manualStorageKey,
  };
}

/** Saves a product's own contacts (null: its brand's), model number and warnings, in the order given. */
export async function setProductSafety(
  db: Db,
  args: { productId: number; input: ProductSafetyInput; actorUserId: string | null },
): Promise<SaveResult> {
  const { input } = args;
  const errors = await checkContactRoles(db, input);
  if (input.warningIds.length > 0) {
    const known = await db.select({ id: safetyWarnings.id }).from(safetyWarnings).where(inArray(safetyWarnings.id, input.warningIds));
    if (known.length !== input.warningIds.length) errors.warningIds = "productSafety.errors.invalid";
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(products)
      .set({ manufacturerId: input.manufacturerId, responsiblePersonId: input.responsiblePersonId, modelNumber: input.modelNumber })
      .where(eq(products.id, args.productId))
      .returning({ id: products.id });
    if (!row) return { ok: false as const, notFound: true as const };
    await tx.delete(productSafetyWarnings).where(eq(productSafetyWarnings.productId, args.productId));
    if (input.warningIds.length > 0) {
      await tx
        .insert(productSafetyWarnings)
        .values(input.warningIds.map((warningId, position) => ({ productId: args.productId, warningId, position })));
    }
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "product.safety",
      entity: "product",
      entityId: args.productId,
      details: { ...input },
    });
    return { ok: true as const, id: args.productId };
  });
}

/** What each product of `productIds` (every one, or every published one, when absent) lacks of GPSR article 19; complete ones are left out. */
export async function listSafetyGaps(
  db: Db,
  scope: { productIds?: readonly number[]; publishedOnly?: boolean } = {},
): Promise<Map<number, SafetyGap[]>> {
  const { productIds, publishedOnly = false } = scope;
  if (productIds && productIds.length === 0) return new Map();
  const manufacturer = sql`(select contact.country_code from ${safetyContacts} as contact where contact.id = ${effectiveContactIdSql("manufacturer")})`;
  const rows = await db
    .select({
      id: products.id,
      manufacturerCountry: sql<string | null>`${manufacturer}`,
      hasResponsiblePerson: sql<boolean>`${effectiveContactIdSql("responsible_person")} is not null`.mapWith(Boolean),
      warningCount: sql<number>`(select count(*) from ${productSafetyWarnings} as link where link.product_id = "products"."id")`.mapWith(Number),
    })
    .from(products)
    .where(and(productIds ? inArray(products.id, [...productIds]) : undefined, publishedOnly ? eq(products.isPublished, true) : undefined))
    .orderBy(asc(products.id));
  const gaps = new Map<number, SafetyGap[]>();
  for (const row of rows) {
    const found = findSafetyGaps({
      manufacturer: row.manufacturerCountry === null ? null : { countryCode: row.manufacturerCountry },
      hasResponsiblePerson: row.hasResponsiblePerson,
      warningCount: row.warningCount,
    });
    if (found.length > 0) gaps.set(row.id, found);
  }
  return gaps;
}

/** How many published products lack safety data: the launch checklist's figure. */
export async function countProductsMissingSafetyData(db: Db): Promise<number> {
  return (await listSafetyGaps(db, { publishedOnly: true })).size;
}
