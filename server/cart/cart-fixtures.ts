/**
 * Rows the cart's integration tests build on (a tiny catalogue: no pictures, no seed). Test-only.
 */
import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  brands,
  categories,
  giftListItems,
  giftLists,
  productBrands,
  productColours,
  products,
  productVariants,
  users,
  type PersonalisationField,
} from "#server/db/schema.ts";

let sequence = 0;
const next = () => ++sequence;

async function categoryId(db: Db) {
  const [row] = await db
    .insert(categories)
    .values({ slug: "test-category", nameIt: "Categoria", nameEn: "Category" })
    .onConflictDoUpdate({ target: categories.slug, set: { nameIt: sql`excluded.name_it` } })
    .returning({ id: categories.id });
  return row!.id;
}

export type ProductOptions = {
  nameIt?: string;
  nameEn?: string;
  priceCents?: number;
  discountPercent?: number;
  offerEndsAt?: Date | null;
  isOnRequest?: boolean;
  isPublished?: boolean;
  personalisationFields?: PersonalisationField[] | null;
  personalisationCostCents?: number;
  /** Variants: colour (null: none) x size; default one variant, one size, stock 10. */
  variants?: { colour?: string | null; size?: string; stock?: number; isPreorder?: boolean; preorderDays?: number | null }[];
};

/** A product with its variants; returns the product id and the variant ids in order. */
export async function createProduct(db: Db, options: ProductOptions = {}) {
  const n = next();
  const [product] = await db
    .insert(products)
    .values({
      sku: `P-${n}-${Math.random().toString(36).slice(2, 8)}`,
      nameIt: options.nameIt ?? `Prodotto ${n}`,
      nameEn: options.nameEn ?? `Product ${n}`,
      priceCents: options.priceCents ?? 1000,
      discountPercent: options.discountPercent ?? 0,
      offerEndsAt: options.offerEndsAt ?? null,
      isOnRequest: options.isOnRequest ?? false,
      isPublished: options.isPublished ?? true,
      primaryCategoryId: await categoryId(db),
      personalisationFields: options.personalisationFields ?? null,
      personalisationCostCents: options.personalisationCostCents ?? 0,
    })
    .returning({ id: products.id, sku: products.sku, priceCents: products.priceCents });
  const variants = options.variants ?? [{}];
  const colourIds = new Map<string, number>();
  for (const colour of new Set(variants.map((variant) => variant.colour ?? null))) {
    if (colour === null) continue;
    const [row] = await db.insert(productColours).values({ productId: product!.id, colour }).returning({ id: productColours.id });
    colourIds.set(colour, row!.id);
  }
  const variantIds: number[] = [];
  for (const [position, variant] of variants.entries()) {
    const [row] = await db
      .insert(productVariants)
      .values({
        productId: product!.id,
        colourId: variant.colour ? colourIds.get(variant.colour)! : null,
        size: variant.size ?? "TAGLIA_UNICA",
        sku: `${product!.sku}-${position}`,
        stock: variant.stock ?? 10,
        isPreorder: variant.isPreorder ?? false,
        preorderDays: variant.preorderDays ?? null,
        position,
      })
      .returning({ id: productVariants.id });
    variantIds.push(row!.id);
  }
  return { productId: product!.id, variantIds, variantId: variantIds[0]! };
}

/** Tags a product with an on-request brand ("Chicco edition"). */
export async function tagOnRequest(db: Db, productId: number) {
  const [brand] = await db
    .insert(brands)
    .values({ slug: `chicco-edition-${next()}`, name: "Chicco edition", marksOnRequest: true })
    .returning({ id: brands.id });
  await db.insert(productBrands).values({ productId, brandId: brand!.id });
}

export async function createUser(db: Db) {
  const n = next();
  const id = `user-${n}-${Math.random().toString(36).slice(2, 8)}`;
  await db.insert(users).values({ id, name: `Cliente ${n}`, email: `${id}@example.com` });
  return id;
}

const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** A gift list with one item per variant given; returns the list and its item ids. */
export async function createGiftList(db: Db, variantIds: number[]) {
  const ownerUserId = await createUser(db);
  const code = Array.from({ length: 8 }, () => codeAlphabet[Math.floor(Math.random() * codeAlphabet.length)]).join("");
  const [list] = await db
    .insert(giftLists)
    .values({ code, ownerUserId, title: `Lista di Sofia ${next()}`, eventDate: "2026-12-01", celebratedNames: "Sofia" })
    .returning({ id: giftLists.id, code: giftLists.code, title: giftLists.title });
  const itemIds: string[] = [];
  for (const variantId of variantIds) {
    const [item] = await db.insert(giftListItems).values({ giftListId: list!.id, variantId, quantityWished: 3 }).returning({ id: giftListItems.id });
    itemIds.push(item!.id);
  }
  return { ...list!, itemIds };
}
