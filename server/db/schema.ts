/**
 * The whole data model. Money is integer cents (EUR). Column names are snake_case in SQL
 * (drizzle `casing: "snake_case"`), camelCase here. Every lookup docs/rules.md#storefront names has an index.
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

// ---------------------------------------------------------------- catalogue

/** PostgreSQL's full-text document type; written only by SQL (server/catalog/search.service.ts). */
const tsvector = customType<{ data: string }>({
  dataType: () => "tsvector",
});

export const categories = pgTable("categories", {
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  /** URL slug exactly as docs/rules.md#categories spells it (case kept: "A-spasso"). */
  slug: text().notNull().unique(),
  nameIt: text().notNull(),
  nameEn: text().notNull(),
  position: integer().notNull().default(0),
});

export const subcategories = pgTable(
  "subcategories",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    categoryId: integer()
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    slug: text().notNull().unique(),
    nameIt: text().notNull(),
    nameEn: text().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [index().on(t.categoryId, t.position)],
);

/** Brands and brand-like tags ("Chicco edition", "Cam - linea solo per te"): the client form's tag[]. */
export const brands = pgTable("brands", {
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  slug: text().notNull().unique(),
  name: text().notNull(),
  /** Products carrying this tag are "on request" (docs/rules.md#product-page: no price, quantity or cart). */
  marksOnRequest: boolean().notNull().default(false),
  /** GPSR article 19: the manufacturer and EU responsible person its products take unless they name their own. */
  manufacturerId: integer().references((): AnyPgColumn => safetyContacts.id, { onDelete: "set null" }),
  responsiblePersonId: integer().references((): AnyPgColumn => safetyContacts.id, { onDelete: "set null" }),
});

export const products = pgTable(
  "products",
  {
    /** Sample ids follow the original catalogue (24 upward); new products continue from 10000. */
    id: integer().primaryKey().generatedByDefaultAsIdentity({ startWith: 10000 }),
    sku: text().notNull().unique(),
    nameIt: text().notNull(),
    nameEn: text().notNull(),
    shortDescriptionIt: text().notNull().default(""),
    shortDescriptionEn: text().notNull().default(""),
    fullDescriptionIt: text().notNull().default(""),
    fullDescriptionEn: text().notNull().default(""),
    /** List price in cents, VAT included. */
    priceCents: integer().notNull(),
    discountPercent: integer().notNull().default(0),
    /** A discount whose offer has ended no longer applies (docs/rules.md#money). */
    offerEndsAt: timestamp({ withTimezone: true }),
    vatRatePercent: integer().notNull().default(22),
    isNew: boolean().notNull().default(false),
    isFreeShipping: boolean().notNull().default(false),
    /**
     * Out of the loyalty card (docs/decisions/0099-loyalty-card.md): earns no points and takes no points discount,
     * as the law asks of infant formula (D.M. 82/2009). Set by the staff.
     */
    isLoyaltyExcluded: boolean().notNull().default(false),
    /** 0 to 5 stars. */
    rating: integer().notNull().default(0),
    saleCount: integer().notNull().default(0),
    /** Set by the back office, or implied by an on-request brand tag. */
    isOnRequest: boolean().notNull().default(false),
    isPublished: boolean().notNull().default(true),
    primaryCategoryId: integer()
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    subcategoryId: integer().references(() => subcategories.id, { onDelete: "set null" }),
    /** Customisation fields (labels per language); null when the product is not customisable. */
    personalisationFields: jsonb().$type<PersonalisationField[]>(),
    personalisationDescriptionIt: text().notNull().default("Non disponibile"),
    personalisationDescriptionEn: text().notNull().default("Not available"),
    personalisationCostCents: integer().notNull().default(0),
    // technical sheet (scheda tecnica)
    lengthMm: integer(),
    widthMm: integer(),
    heightMm: integer(),
    weightGrams: integer(),
    materialIt: text(),
    materialEn: text(),
    affiliateUrl: text(),
    // product safety (GPSR, docs/decisions/0088-product-safety-data.md): null takes the first brand's
    manufacturerId: integer().references((): AnyPgColumn => safetyContacts.id, { onDelete: "set null" }),
    responsiblePersonId: integer().references((): AnyPgColumn => safetyContacts.id, { onDelete: "set null" }),
    /** The model (type) number printed on the product and its label. */
    modelNumber: text(),
    /** The uploaded manual (a PDF) in the media store; null when there is none. */
    manualStorageKey: text(),
    /**
     * Search document: names and short descriptions (Italian and English stemming, accents folded)
     * and the first brand. Kept up to date by refreshProductSearch (server/catalog/search.service.ts).
     */
    searchVector: tsvector(),
    /** The same texts, lower-cased and unaccented: the words typos are matched against (product_search_words). */
    searchText: text().notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("products_price_cents_non_negative", sql`${t.priceCents} >= 0`),
    check("products_discount_percent_range", sql`${t.discountPercent} between 0 and 100`),
    check("products_rating_range", sql`${t.rating} between 0 and 5`),
    check("products_personalisation_cost_non_negative", sql`${t.personalisationCostCents} >= 0`),
    check("products_vat_rate_range", sql`${t.vatRatePercent} between 0 and 100`),
    index().on(t.primaryCategoryId),
    index().on(t.subcategoryId),
    index().on(t.createdAt),
    index().on(t.saleCount),
    index("products_search_vector_idx").using("gin", t.searchVector),
    // The listing's counts and price order read only these columns of published products: an index-only
    // scan instead of the wide rows (bench/scale.mjs, 100,000 products).
    index("products_published_listing_idx")
      .on(t.id, t.priceCents, t.discountPercent, t.offerEndsAt, t.isOnRequest)
      .where(sql`${t.isPublished}`),
    // A category page's subcategory counts.
    index("products_published_subcategory_idx")
      .on(t.subcategoryId, t.id)
      .where(sql`${t.isPublished}`),
  ],
);

export type PersonalisationField = { labelIt: string; labelEn: string; maxLength: number };

/** A product belongs to one or more categories (client form `category[]`). */
export const productCategories = pgTable(
  "product_categories",
  {
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    categoryId: integer()
      .notNull()
      .references(() => categories.id, { onDelete: "cascade" }),
    position: integer().notNull().default(0),
  },
  // (category, product): a category's products without reading the table (listing filters and counts).
  (t) => [primaryKey({ columns: [t.productId, t.categoryId] }), index().on(t.categoryId, t.productId)],
);

/** Brand tags in order: the first one is "the brand" for search (docs/rules.md#listing-and-search). */
export const productBrands = pgTable(
  "product_brands",
  {
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    brandId: integer()
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    position: integer().notNull().default(0),
  },
  // (brand, product): a brand's products without reading the table (listing filters and counts).
  (t) => [primaryKey({ columns: [t.productId, t.brandId] }), index().on(t.brandId, t.productId)],
);

export const productRelations = pgTable(
  "product_relations",
  {
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    relatedProductId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    position: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.relatedProductId] }),
    check("product_relations_not_self", sql`${t.productId} <> ${t.relatedProductId}`),
  ],
);

export const productColours = pgTable(
  "product_colours",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** Colour key, e.g. "white", "black", "brown", "blue". */
    colour: text().notNull(),
    position: integer().notNull().default(0),
  },
  // (colour, product): the listing's colour filter and counts.
  (t) => [unique().on(t.productId, t.colour), index().on(t.productId, t.position), index().on(t.colour, t.productId)],
);

/**
 * An uploaded or generated picture. `storageKey` names the original; sharp's AVIF/WebP variants
 * are written once beside it at upload or seed time (server/catalog/images.ts).
 */
export const productImages = pgTable(
  "product_images",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** Null: an image of the product as a whole (used when a colour has none). */
    colourId: integer().references(() => productColours.id, { onDelete: "cascade" }),
    storageKey: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    altIt: text().notNull().default(""),
    altEn: text().notNull().default(""),
    position: integer().notNull().default(0),
  },
  (t) => [index().on(t.productId, t.colourId, t.position)],
);

/** What is actually sold and stocked: colour x size. Simple products have one variant. */
export const productVariants = pgTable(
  "product_variants",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    colourId: integer().references(() => productColours.id, { onDelete: "cascade" }),
    /** Size name; "TAGLIA_UNICA" (or the legacy "tagliau") means one size. */
    size: text().notNull().default("TAGLIA_UNICA"),
    sku: text().notNull().unique(),
    stock: integer().notNull().default(0),
    /** prenotazione = 'Si' in the legacy data: sold as a pre-order. */
    isPreorder: boolean().notNull().default(false),
    preorderDays: integer(),
    position: integer().notNull().default(0),
    /** The barcode number (EAN-13 mostly), checked with its check digit (server/catalog/gtin.ts); for product feeds. */
    gtin: text(),
  },
  (t) => [
    check("product_variants_stock_non_negative", sql`${t.stock} >= 0`),
    check("product_variants_gtin_digits", sql`${t.gtin} ~ '^([0-9]{8}|[0-9]{12,14})$'`),
    check("product_variants_preorder_days", sql`${t.preorderDays} is null or ${t.preorderDays} between 1 and 365`),
    unique("product_variants_product_colour_size").on(t.productId, t.colourId, t.size).nullsNotDistinct(),
    index().on(t.productId),
    index().on(t.stock),
    // (size, product): the listing's size filter and counts.
    index().on(t.size, t.productId),
  ],
);

/**
 * What the listing filters, counts, sorts and searches on, one narrow row per product, written only by
 * triggers (migration 0011_product_listing) from products and their categories, brands, colours and
 * sizes. The products rows are wide (long texts): reading thousands of them for a listing's counts cost
 * more than the 50 ms it may take; this table is a quarter of their size and its GIN indexes on the facet
 * arrays find a combination of filters without joins (decision 0025).
 */
export const productListing = pgTable(
  "product_listing",
  {
    productId: integer()
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    isPublished: boolean().notNull(),
    /** The product's own flag, or a brand tag that marks on request: the one place the rule is kept (isOnRequestSql reads it). */
    isOnRequest: boolean().notNull(),
    isNew: boolean().notNull(),
    saleCount: integer().notNull(),
    subcategoryId: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    priceCents: integer().notNull(),
    discountPercent: integer().notNull(),
    offerEndsAt: timestamp({ withTimezone: true }),
    categoryIds: integer().array().notNull(),
    brandIds: integer().array().notNull(),
    colours: text().array().notNull(),
    /** Distinct size names of its variants, one-size included. */
    sizes: text().array().notNull(),
    searchVector: tsvector(),
    /** The first word of the Italian and English names, for search's "name starts with a searched word" bonus. */
    nameLeadIt: tsvector().notNull(),
    nameLeadEn: tsvector().notNull(),
  },
  (t) => [
    index("product_listing_category_ids_idx")
      .using("gin", t.categoryIds)
      .where(sql`${t.isPublished}`),
    index("product_listing_brand_ids_idx")
      .using("gin", t.brandIds)
      .where(sql`${t.isPublished}`),
    index("product_listing_colours_idx")
      .using("gin", t.colours)
      .where(sql`${t.isPublished}`),
    index("product_listing_sizes_idx")
      .using("gin", t.sizes)
      .where(sql`${t.isPublished}`),
    index("product_listing_search_vector_idx")
      .using("gin", t.searchVector)
      .where(sql`${t.isPublished}`),
    index("product_listing_created_at_idx")
      .on(t.createdAt)
      .where(sql`${t.isPublished}`),
    index("product_listing_subcategory_id_idx")
      .on(t.subcategoryId)
      .where(sql`${t.isPublished}`),
    // A price sort reads these in order, as far as its page (listing.service.ts, priceOrderedIds): the list
    // price, and the discounted price of products with a discount (server/money.ts's rounding).
    index("product_listing_price_idx")
      .on(t.priceCents, t.productId)
      .where(sql`${t.isPublished}`),
    index("product_listing_discounted_price_idx")
      .on(sql`round(${t.priceCents} * (100 - ${t.discountPercent}) / 100.0)`, t.productId)
      .where(sql`${t.isPublished} and ${t.discountPercent} > 0`),
    // The few on-request products, which a price sort puts last.
    index("product_listing_on_request_idx")
      .on(t.productId)
      .where(sql`${t.isPublished} and ${t.isOnRequest}`),
  ],
);

/** Every stock change with its reason: orders, cancellations, expiries, back-office adjustments. */
export const stockMovements = pgTable(
  "stock_movements",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    variantId: integer()
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    delta: integer().notNull(),
    reason: text().notNull(),
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    actorUserId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.variantId, t.createdAt)],
);

/** Effective price over time, for the EU rule "lowest price of the previous 30 days". */
export const productPriceHistory = pgTable(
  "product_price_history",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    priceCents: integer().notNull(),
    effectivePriceCents: integer().notNull(),
    recordedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.productId, t.recordedAt)],
);

// ---------------------------------------------------------------- accounts (better-auth tables)

export const users = pgTable("users", {
  id: text().primaryKey(),
  name: text().notNull(),
  email: text().notNull().unique(),
  emailVerified: boolean().notNull().default(false),
  image: text(),
  role: text().notNull().default("customer"),
  banned: boolean().default(false),
  banReason: text(),
  banExpires: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const sessions = pgTable(
  "sessions",
  {
    id: text().primaryKey(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    token: text().notNull().unique(),
    ipAddress: text(),
    userAgent: text(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    impersonatedBy: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text().primaryKey(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text().primaryKey(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.identifier)],
);

/** better-auth's rate-limit counters, in the database so they hold across app processes. */
export const rateLimits = pgTable("rate_limits", {
  id: text().primaryKey(),
  key: text().notNull().unique(),
  count: integer().notNull(),
  lastRequest: bigint({ mode: "number" }).notNull(),
});

export const profiles = pgTable("profiles", {
  userId: text()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  firstName: text(),
  lastName: text(),
  phone: text(),
  fiscalCode: text(),
  preferredLocale: text().notNull().default("it"),
  updatedAt: updatedAt(),
});

export const addresses = pgTable(
  "addresses",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    label: text(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    street: text().notNull(),
    houseNumber: text().notNull(),
    postcode: text().notNull(),
    city: text().notNull(),
    province: text().notNull(),
    country: text().notNull().default("IT"),
    phone: text(),
    isDefault: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index().on(t.userId),
    check("addresses_postcode_format", sql`${t.postcode} ~ '^[0-9]{5}$'`),
    check("addresses_province_format", sql`${t.province} ~ '^[A-Z]{2}$'`),
  ],
);

// ---------------------------------------------------------------- cart, wishlist, compare

/** A server-side cart; its id travels in an httpOnly cookie (docs/rules.md#cart). */
export const carts = pgTable(
  "carts",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text().references(() => users.id, { onDelete: "cascade" }),
    /** Set while the cart holds gift-list items: one list only, never mixed (docs/rules.md#gift-list-mixing). */
    giftListId: uuid().references(() => giftLists.id, { onDelete: "set null" }),
    /** A guest buying from a gift list: their name and message to the list's owner, copied into the order. */
    giftGiverName: text(),
    giftMessage: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("carts_one_per_user")
      .on(t.userId)
      .where(sql`${t.userId} is not null`),
    index().on(t.updatedAt),
  ],
);

export const cartLines = pgTable(
  "cart_lines",
  {
    id: uuid().primaryKey().defaultRandom(),
    cartId: uuid()
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    variantId: integer()
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    quantity: integer().notNull(),
    /** Field index -> text; empty object when the product is not customised. */
    personalisation: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** Canonical form of `personalisation`, so equal customisations merge into one line. */
    personalisationKey: text().notNull().default(""),
    giftListItemId: uuid().references(() => giftListItems.id, { onDelete: "cascade" }),
    /**
     * The unit price (discount applied, personalisation excluded) the customer saw when they last added
     * units to this line: the cart says so when today's price differs. Null on lines stored before it existed.
     */
    seenUnitCents: integer(),
    createdAt: createdAt(),
  },
  (t) => [
    check("cart_lines_quantity_positive", sql`${t.quantity} > 0`),
    check("cart_lines_seen_unit_cents_not_negative", sql`${t.seenUnitCents} >= 0`),
    unique("cart_lines_merge_key").on(t.cartId, t.variantId, t.personalisationKey, t.giftListItemId).nullsNotDistinct(),
    index().on(t.cartId),
  ],
);

export const wishlistItems = pgTable(
  "wishlist_items",
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] })],
);

export const compareItems = pgTable(
  "compare_items",
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] })],
);

/** `/basket/{id}`: a cart saved as a shareable link (docs/rules.md#shared-baskets). */
export const savedBaskets = pgTable("saved_baskets", {
  id: text().primaryKey(),
  createdByUserId: text().references(() => users.id, { onDelete: "set null" }),
  lines: jsonb().$type<{ variantId: number; quantity: number; personalisation: Record<string, string> }[]>().notNull(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------- orders and payments

export const orderStatus = pgEnum("order_status", [
  "awaiting_payment",
  "paid",
  "preparing",
  "shipped",
  "ready_for_collection",
  "completed",
  "cancelled",
  "expired",
  "refunded",
]);
export const deliveryMethod = pgEnum("delivery_method", ["local_delivery", "collection", "standard"]);
export const paymentMethod = pgEnum("payment_method", ["card", "cash_on_delivery", "bank_transfer", "in_shop"]);
/** How an order paid online ("card" above) is paid at the provider: Stripe's payment method types, or Scalapay (common/online-payment-methods.ts). */
export const onlinePaymentMethod = pgEnum("online_payment_method", ["card", "paypal", "satispay", "klarna", "sepa_debit", "scalapay"]);
/** Whether the customer asked for an invoice at checkout, as a private person or as a company. */
export const invoiceKind = pgEnum("invoice_kind", ["none", "private", "company"]);

export const orders = pgTable(
  "orders",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Human order number shown to customers and staff. */
    number: integer().notNull().unique().generatedAlwaysAsIdentity({ startWith: 1001 }),
    /** Same checkout submitted twice gives one order. */
    idempotencyKey: text().notNull().unique(),
    userId: text().references(() => users.id, { onDelete: "set null" }),
    cartId: uuid(),
    status: orderStatus().notNull().default("awaiting_payment"),
    locale: text().notNull().default("it"),
    email: text().notNull(),
    phone: text().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    /** Shipping address; null for collection in the shop. Gift-list orders copy the list's address. */
    street: text(),
    houseNumber: text(),
    postcode: text(),
    city: text(),
    province: text(),
    country: text().notNull().default("IT"),
    invoiceKind: invoiceKind().notNull().default("none"),
    /** The buyer's codice fiscale for a private person's invoice. */
    fiscalCode: text(),
    companyName: text(),
    vatNumber: text(),
    sdiCode: text(),
    pec: text(),
    deliveryMethod: deliveryMethod().notNull(),
    paymentMethod: paymentMethod().notNull(),
    /** The customer's choice of how to pay online, sent to the provider; null for the other payment methods. */
    onlinePaymentMethod: onlinePaymentMethod(),
    subtotalCents: integer().notNull(),
    personalisationCents: integer().notNull().default(0),
    discountCents: integer().notNull().default(0),
    shippingCents: integer().notNull().default(0),
    paymentFeeCents: integer().notNull().default(0),
    totalCents: integer().notNull(),
    giftListId: uuid().references(() => giftLists.id, { onDelete: "set null" }),
    giftMessage: text(),
    giverName: text(),
    discountCodeId: integer().references(() => discountCodes.id, { onDelete: "set null" }),
    /** Voucher lines (gift cards bought, fund contributions): inside totalCents, outside VAT, invoices and takings (decision 0106). */
    voucherCents: integer().notNull().default(0),
    /** Paid with a gift card (a payment, not a discount: still inside totalCents); the rest is what is still to pay. */
    giftCardCents: integer().notNull().default(0),
    /** Loyalty points spent on this order and the discount they gave (server/loyalty/, out of subtotalCents like a code). */
    loyaltyPointsRedeemed: integer().notNull().default(0),
    loyaltyDiscountCents: integer().notNull().default(0),
    carrier: text(),
    trackingNumber: text(),
    /** Unpaid orders hold their stock until then; afterwards they expire and give it back. */
    paymentDueAt: timestamp({ withTimezone: true }),
    paidAt: timestamp({ withTimezone: true }),
    /** The delivery promised when the order was placed (server/checkout/delivery-estimate.ts); null on older orders. */
    estimatedDeliveryFrom: date({ mode: "string" }),
    estimatedDeliveryTo: date({ mode: "string" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("orders_total_non_negative", sql`${t.totalCents} >= 0`),
    check("orders_gift_card_within_total", sql`${t.giftCardCents} >= 0 and ${t.giftCardCents} <= ${t.totalCents}`),
    index().on(t.userId, t.createdAt),
    index().on(t.status, t.createdAt),
    index().on(t.createdAt),
    index().on(t.giftListId),
    index("orders_awaiting_payment_due")
      .on(t.paymentDueAt)
      .where(sql`${t.status} = 'awaiting_payment'`),
  ],
);

export const orderLines = pgTable(
  "order_lines",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: integer().references(() => products.id, { onDelete: "set null" }),
    variantId: integer().references(() => productVariants.id, { onDelete: "set null" }),
    // price and description snapshot at the time of the order
    sku: text().notNull(),
    name: text().notNull(),
    colour: text(),
    size: text(),
    quantity: integer().notNull(),
    listPriceCents: integer().notNull(),
    discountPercent: integer().notNull().default(0),
    unitPriceCents: integer().notNull(),
    personalisation: jsonb().$type<Record<string, string>>().notNull().default({}),
    personalisationUnitCents: integer().notNull().default(0),
    lineTotalCents: integer().notNull(),
    /** This line's share of the order's discount code saving (not in lineTotalCents): refunds and invoices bill the rest. */
    codeDiscountCents: integer().notNull().default(0),
    /** This line's share of the loyalty points discount (not in lineTotalCents), billed off the line as the code's share. */
    loyaltyDiscountCents: integer().notNull().default(0),
    /** The line earns no points and took no points discount (infant formula, an excluded kind). */
    isLoyaltyExcluded: boolean().notNull().default(false),
    vatRatePercent: integer().notNull().default(22),
    isPreorder: boolean().notNull().default(false),
    giftListItemId: uuid().references(() => giftListItems.id, { onDelete: "set null" }),
    /**
     * A part of a bundle bought (docs/decisions/0100-bundles.md): the parts of one bundle line share this id,
     * the bundle's name and how many bundles; the part's unit price is its share of the bundle's price.
     */
    bundleLineId: uuid(),
    bundleProductId: integer().references(() => products.id, { onDelete: "set null" }),
    bundleName: text(),
    bundleQuantity: integer(),
  },
  (t) => [check("order_lines_quantity_positive", sql`${t.quantity} > 0`), index().on(t.orderId), index().on(t.variantId)],
);

export const orderStatusHistory = pgTable(
  "order_status_history",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    fromStatus: orderStatus(),
    toStatus: orderStatus().notNull(),
    note: text(),
    actorUserId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.orderId, t.createdAt)],
);

export const paymentStatus = pgEnum("payment_status", ["pending", "succeeded", "failed", "expired", "refunded"]);

export const payments = pgTable(
  "payments",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** "stripe", "test" (the labelled test-payment page), "cash_on_delivery", "bank_transfer", "in_shop". */
    provider: text().notNull(),
    /** The provider's id, e.g. the Stripe Checkout Session id. */
    providerRef: text().unique(),
    status: paymentStatus().notNull().default("pending"),
    amountCents: integer().notNull(),
    refundedCents: integer().notNull().default(0),
    /** Until when the shop waits for this session; for a payment in verification, the limit of the wait. */
    expiresAt: timestamp({ withTimezone: true }),
    /** The provider took the customer's payment but confirms it later (SEPA, some PayPal): since when. */
    processingSince: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.orderId)],
);

/** Webhook events already applied: the primary key makes every delivery after the first a no-op. */
export const paymentEvents = pgTable("payment_events", {
  id: text().primaryKey(),
  provider: text().notNull(),
  type: text().notNull(),
  orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
  receivedAt: createdAt(),
});

/** A code's saving: a percentage of the goods it applies to, or a fixed amount off them. */
export const discountCodeKind = pgEnum("discount_code_kind", ["percent", "fixed"]);

/**
 * Discount codes, owned by server/coupons/: the staff's codes (back office) and the gift lists' completion
 * codes (`giftListId` set), one rule for both (docs/decisions/0066-coupon-codes.md).
 */
export const discountCodes = pgTable(
  "discount_codes",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    code: text().notNull().unique(),
    kind: discountCodeKind().notNull().default("percent"),
    /** Percent off (kind percent), else null. */
    percent: integer(),
    /** Euro cents off the eligible goods (kind fixed), else null. */
    amountCents: integer(),
    /** The eligible goods must add up to at least this (0: no minimum). */
    minOrderCents: integer().notNull().default(0),
    validFrom: timestamp({ withTimezone: true }).notNull(),
    validUntil: timestamp({ withTimezone: true }).notNull(),
    /** Completion discount of a gift list: valid on what nobody bought from it. */
    giftListId: uuid().references(() => giftLists.id, { onDelete: "cascade" }),
    /** Null: no limit on the total uses. */
    maxUses: integer().default(1),
    usedCount: integer().notNull().default(0),
    /** Null: no limit per customer (an account, or an e-mail address for guests and accounts alike). */
    maxUsesPerCustomer: integer(),
    /** False: refused on an order whose delivery is already free (decision 0066). */
    combinesWithFreeDelivery: boolean().notNull().default(true),
    /** True: also valid on a gift-list purchase. */
    appliesToGiftLists: boolean().notNull().default(false),
    isActive: boolean().notNull().default(true),
    /** The staff's own note ("Black Friday 2026"); never shown to customers. */
    note: text().notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      "discount_codes_amount",
      sql`(${t.kind} = 'percent' and ${t.percent} between 1 and 100 and ${t.amountCents} is null) or (${t.kind} = 'fixed' and ${t.amountCents} > 0 and ${t.percent} is null)`,
    ),
    check("discount_codes_uses", sql`${t.usedCount} >= 0 and (${t.maxUses} is null or ${t.usedCount} <= ${t.maxUses})`),
    check("discount_codes_limits", sql`${t.minOrderCents} >= 0 and (${t.maxUsesPerCustomer} is null or ${t.maxUsesPerCustomer} > 0)`),
    check("discount_codes_window", sql`${t.validFrom} < ${t.validUntil}`),
  ],
);

/** A code limited to some categories: only their products' lines are discounted. */
export const discountCodeCategories = pgTable(
  "discount_code_categories",
  {
    discountCodeId: integer()
      .notNull()
      .references(() => discountCodes.id, { onDelete: "cascade" }),
    categoryId: integer()
      .notNull()
      .references(() => categories.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.discountCodeId, t.categoryId] })],
);

/** A code limited to some brands: only their products' lines are discounted. */
export const discountCodeBrands = pgTable(
  "discount_code_brands",
  {
    discountCodeId: integer()
      .notNull()
      .references(() => discountCodes.id, { onDelete: "cascade" }),
    brandId: integer()
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.discountCodeId, t.brandId] })],
);

/**
 * One row per order holding a use of a code, for the limit per customer: written with the use, deleted
 * when the use is given back (the order expired or was cancelled).
 */
export const discountCodeUses = pgTable(
  "discount_code_uses",
  {
    orderId: uuid()
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    discountCodeId: integer()
      .notNull()
      .references(() => discountCodes.id, { onDelete: "cascade" }),
    userId: text().references(() => users.id, { onDelete: "set null" }),
    /** Lower-cased: the same customer as a guest and signed in. */
    email: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.discountCodeId, t.userId), index().on(t.discountCodeId, t.email)],
);

// ---------------------------------------------------------------- gift lists

export const giftListType = pgEnum("gift_list_type", ["nascita", "compleanno", "battesimo"]);
export const giftListVisibility = pgEnum("gift_list_visibility", ["public", "code_only"]);
export const giftListStatus = pgEnum("gift_list_status", ["open", "closed"]);

export const giftLists = pgTable(
  "gift_lists",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** 8 characters without look-alikes (no 0/O, 1/I/L). */
    code: text().notNull().unique(),
    ownerUserId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: giftListType().notNull().default("nascita"),
    title: text().notNull(),
    eventDate: date({ mode: "string" }).notNull(),
    celebratedNames: text().notNull(),
    messageToGuests: text().notNull().default(""),
    /** Null: gifts are collected in the shop. Never shown to guests. */
    shippingAddressId: integer().references(() => addresses.id, { onDelete: "set null" }),
    visibility: giftListVisibility().notNull().default("public"),
    status: giftListStatus().notNull().default("open"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.ownerUserId), index().on(t.eventDate), check("gift_lists_code_format", sql`${t.code} ~ '^[A-HJ-KM-NP-Z2-9]{8}$'`)],
);

export const giftListItems = pgTable(
  "gift_list_items",
  {
    id: uuid().primaryKey().defaultRandom(),
    giftListId: uuid()
      .notNull()
      .references(() => giftLists.id, { onDelete: "cascade" }),
    variantId: integer()
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    quantityWished: integer().notNull(),
    /** Raised with a conditional UPDATE, like stock: never above quantityWished. */
    quantityBought: integer().notNull().default(0),
    personalisation: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** Guests contribute amounts toward one unit at a time (docs/decisions/0021-group-gifting.md). */
    isGroupGift: boolean().notNull().default(false),
    /** The price of one unit, fixed when the owner opened the group gift; null when it is not one. */
    groupTargetCents: integer(),
    /** Contributions placed in the current round, paid or awaiting payment: raised with a conditional UPDATE, never above the target. */
    groupPledgedCents: integer().notNull().default(0),
    /** The paid part of the pledged amount. */
    groupFundedCents: integer().notNull().default(0),
    position: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check("gift_list_items_wished_positive", sql`${t.quantityWished} > 0`),
    check("gift_list_items_bought_range", sql`${t.quantityBought} between 0 and ${t.quantityWished}`),
    check("gift_list_items_funded_non_negative", sql`${t.groupFundedCents} >= 0`),
    check(
      "gift_list_items_group_amounts",
      sql`${t.groupFundedCents} <= ${t.groupPledgedCents} and ${t.groupPledgedCents} <= coalesce(${t.groupTargetCents}, 0) and (not ${t.isGroupGift} or ${t.groupTargetCents} > 0)`,
    ),
    unique().on(t.giftListId, t.variantId),
    index().on(t.giftListId, t.position),
  ],
);

export const giftListInvitations = pgTable(
  "gift_list_invitations",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    giftListId: uuid()
      .notNull()
      .references(() => giftLists.id, { onDelete: "cascade" }),
    email: text().notNull(),
    outboxEmailId: bigint({ mode: "number" }).references(() => outboxEmails.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.giftListId, t.createdAt)],
);

export const giftListPurchases = pgTable(
  "gift_list_purchases",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    giftListId: uuid()
      .notNull()
      .references(() => giftLists.id, { onDelete: "cascade" }),
    giftListItemId: uuid().references(() => giftListItems.id, { onDelete: "set null" }),
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    /** "item" for a bought unit, "contribution" toward a group gift. */
    kind: text().notNull().default("item"),
    quantity: integer().notNull().default(0),
    amountCents: integer().notNull().default(0),
    giverName: text().notNull(),
    giverEmail: text(),
    message: text(),
    thankedAt: timestamp({ withTimezone: true }),
    /** Units of this purchase the giver withdrew from and sent back: no longer counted as bought. */
    returnedQuantity: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.giftListId, t.createdAt), unique("gift_list_purchases_once_per_order_item").on(t.orderId, t.giftListItemId)],
);

/**
 * A guest's contribution toward a group gift: its own card order (one line, no stock), the amount pledged
 * on the item while it waits for payment. Docs: docs/decisions/0021-group-gifting.md.
 */
export const giftListContributions = pgTable(
  "gift_list_contributions",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    giftListItemId: uuid()
      .notNull()
      .references(() => giftListItems.id, { onDelete: "cascade" }),
    orderId: uuid()
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "cascade" }),
    amountCents: integer().notNull(),
    /** The list's order the funded gift became; null while its round is still collecting. */
    fundedOrderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    /** Its order expired or was cancelled: the amount went back and no longer counts. */
    releasedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [check("gift_list_contributions_amount_positive", sql`${t.amountCents} > 0`), index().on(t.giftListItemId, t.createdAt)],
);

// ---------------------------------------------------------------- mail, settings, rates, contact, audit

export const outboxStatus = pgEnum("outbox_status", ["queued", "sending", "sent", "failed"]);

/** Every e-mail is written here first and sent by a job with retries: none is lost. */
export const outboxEmails = pgTable(
  "outbox_emails",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    textBody: text().notNull(),
    htmlBody: text(),
    kind: text().notNull(),
    locale: text().notNull().default("it"),
    status: outboxStatus().notNull().default("queued"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    /** Optional dedupe key, e.g. "order-confirmation:{orderId}". */
    dedupeKey: text().unique(),
    /** Extra mail headers (e.g. List-Unsubscribe of newsletter mail), sent as they are. */
    headers: jsonb().$type<Record<string, string>>(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("outbox_emails_due")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index().on(t.createdAt),
  ],
);

/** Shop settings as typed JSON values per key (server/admin/settings.ts owns the shapes). */
export const shopSettings = pgTable("shop_settings", {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedAt: updatedAt(),
  updatedByUserId: text().references(() => users.id, { onDelete: "set null" }),
});

/** Display-currency rates per 1 EUR (docs/rules.md#money: base EUR, ECB reference rates). */
export const exchangeRates = pgTable("exchange_rates", {
  currency: text().primaryKey(),
  ratePerEur: numeric({ precision: 14, scale: 6, mode: "number" }).notNull(),
  /** "bundled", "ecb" or "manual". */
  source: text().notNull(),
  updatedAt: updatedAt(),
});

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    email: text().notNull(),
    phone: text(),
    subject: text().notNull(),
    message: text().notNull(),
    locale: text().notNull().default("it"),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.createdAt)],
);

/** The shop's own newsletter list (server/newsletter/ owns it): double opt-in, consent kept as shown. */
export const newsletterStatus = pgEnum("newsletter_status", ["pending", "confirmed", "unsubscribed"]);

export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    /** Lower-cased: one row per address. */
    email: text().notNull().unique(),
    /** The language of the page where the person signed up: their mail speaks it. */
    locale: text().notNull().default("it"),
    status: newsletterStatus().notNull().default("pending"),
    /** The consent text shown next to the field, its version and when it was given (GDPR art. 7.1). */
    consentText: text().notNull(),
    consentVersion: text().notNull(),
    consentAt: timestamp({ withTimezone: true }).notNull(),
    /** SHA-256 of the confirmation link's token: one use, cleared on confirmation. */
    confirmTokenHash: text().unique(),
    confirmTokenExpiresAt: timestamp({ withTimezone: true }),
    /** The unsubscribe link's token, kept for every later mail's link. */
    unsubscribeToken: text().notNull().unique(),
    /** The last opt-in mail queued: a pending address gets at most one per few minutes. */
    lastMailAt: timestamp({ withTimezone: true }),
    confirmedAt: timestamp({ withTimezone: true }),
    unsubscribedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.status, t.createdAt)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    actorUserId: text().references(() => users.id, { onDelete: "set null" }),
    action: text().notNull(),
    entity: text().notNull(),
    entityId: text(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.createdAt), index().on(t.entity, t.entityId)],
);

/**
 * A back-office import that runs after its request (server/admin/import-jobs.service.ts): its progress and
 * report, here so that any app process behind nginx can show them. Its process writes progress at
 * most every half second and beats every minute while it runs; no beat for minutes means it died.
 */
export const importJobs = pgTable(
  "import_jobs",
  {
    id: uuid().primaryKey().defaultRandom(),
    ownerUserId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** "csv" or "legacy". */
    kind: text().notNull(),
    done: integer().notNull().default(0),
    total: integer().notNull().default(0),
    report: jsonb().$type<unknown>(),
    failed: boolean().notNull().default(false),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    /** The last progress or beat of the process running it. */
    beatAt: timestamp({ withTimezone: true }).notNull(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [check("import_jobs_kind", sql`${t.kind} in ('csv', 'legacy')`), index().on(t.finishedAt)],
);

// ---------------------------------------------------------------- customers' reviews

export const reviewStatus = pgEnum("review_status", ["pending", "published", "refused"]);

/**
 * A customer's review of a product they bought (server/reviews/review.service.ts, the only writer): one
 * per product per order, written from a completed order, shown once the staff publish it.
 */
export const productReviews = pgTable(
  "product_reviews",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    userId: text().references(() => users.id, { onDelete: "set null" }),
    /** As shown: the buyer's first name and the initial of the last ("Maria R."). */
    authorName: text().notNull(),
    stars: integer().notNull(),
    body: text().notNull(),
    /** The language it was written in. */
    locale: text().notNull(),
    status: reviewStatus().notNull().default("pending"),
    refusalReason: text(),
    /** The shop's public answer, shown under the review. */
    reply: text(),
    repliedAt: timestamp({ withTimezone: true }),
    moderatedAt: timestamp({ withTimezone: true }),
    moderatorUserId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("product_reviews_one_per_order_product").on(t.orderId, t.productId),
    check("product_reviews_stars_range", sql`${t.stars} between 1 and 5`),
    check("product_reviews_refusal_reason", sql`${t.status} <> 'refused' or ${t.refusalReason} is not null`),
    index("product_reviews_published")
      .on(t.productId, t.createdAt)
      .where(sql`${t.status} = 'published'`),
    index().on(t.status, t.createdAt),
  ],
);

// ---------------------------------------------------------------- invoices

/** TD01 invoice or TD04 credit note (FatturaPA TipoDocumento). */
export const invoiceDocumentKind = pgEnum("invoice_document_kind", ["invoice", "credit_note"]);

/**
 * Issued invoices and credit notes (server/invoices/invoice.service.ts is the only writer). Insert-only:
 * a trigger refuses every update and delete, so an issued document never changes. `document` is the
 * snapshot the printable page and the XML are made from, `xml` the FatturaPA file as issued.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: invoiceDocumentKind().notNull(),
    /** Numbering series: "FT" invoices, "NC" credit notes; each counts from 1 every calendar year. */
    series: text().notNull(),
    year: integer().notNull(),
    sequence: integer().notNull(),
    /** As printed and sent: "2026/0001", "NC2026/0001". */
    number: text().notNull().unique(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id),
    /** The invoice a credit note corrects. */
    correctsInvoiceId: uuid().references((): AnyPgColumn => invoices.id),
    /** A caller's key for one credit note (a refund's id): issuing twice with it gives the same note. */
    sourceKey: text().unique(),
    issuedOn: date({ mode: "string" }).notNull(),
    totalCents: integer().notNull(),
    document: jsonb().$type<unknown>().notNull(),
    xml: text().notNull(),
    /** Who issued it, kept as written (no reference: an issued document never changes, not even here). */
    issuedByUserId: text(),
    createdAt: createdAt(),
  },
  (t) => [
    unique().on(t.series, t.year, t.sequence),
    check("invoices_sequence_positive", sql`${t.sequence} > 0`),
    uniqueIndex("invoices_one_per_order")
      .on(t.orderId)
      .where(sql`${t.kind} = 'invoice'`),
    index().on(t.issuedOn),
    index().on(t.correctsInvoiceId),
  ],
);

/** The last number given per series and calendar year: taken with a row lock in the issuing transaction. */
export const invoiceCounters = pgTable(
  "invoice_counters",
  {
    series: text().notNull(),
    year: integer().notNull(),
    lastNumber: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.year] })],
);

// ---------------------------------------------------------------- invoices through the SDI

/**
 * A file's way to the Sistema di Interscambio through the intermediary (docs/decisions/0091-sdi-intermediary.md):
 * queued and sending (to the intermediary, retried), sent (the intermediary has it, the SDI's answer is
 * awaited), then the SDI's answer: delivered (RC), not_delivered (MC: valid, in the buyer's tax drawer),
 * rejected (NS: never issued, to correct and resend); refused: the intermediary itself refused the file.
 */
export const sdiTransmissionStatus = pgEnum("sdi_transmission_status", [
  "queued",
  "sending",
  "sent",
  "delivered",
  "not_delivered",
  "rejected",
  "refused",
]);

/** Each file sent for an invoice or credit note: the first as issued, later ones corrected after a rejection. */
export const sdiTransmissions = pgTable(
  "sdi_transmissions",
  {
    id: uuid().primaryKey().defaultRandom(),
    invoiceId: uuid()
      .notNull()
      .references(() => invoices.id),
    /** 1: the document as issued; 2, 3...: corrected after a rejection, same number and date. */
    attempt: integer().notNull(),
    document: jsonb().$type<unknown>().notNull(),
    xml: text().notNull(),
    status: sdiTransmissionStatus().notNull().default("queued"),
    /** Tries to hand the file to the intermediary; the next one is due at `nextTryAt` (while sending: the lease's end). */
    tries: integer().notNull().default(0),
    nextTryAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    /** The intermediary's id of the file, once it has it. */
    providerId: text().unique(),
    /** The SDI's own identifier of the file, from its first answer. */
    sdiId: text(),
    /** The SDI's (or the intermediary's) error codes and descriptions of a rejection. */
    errors: jsonb().$type<{ code: string; description: string }[]>().notNull().default([]),
    sentAt: timestamp({ withTimezone: true }),
    outcomeAt: timestamp({ withTimezone: true }),
    createdByUserId: text(),
    createdAt: createdAt(),
  },
  (t) => [
    unique().on(t.invoiceId, t.attempt),
    uniqueIndex("sdi_transmissions_one_open")
      .on(t.invoiceId)
      .where(sql`${t.status} in ('queued', 'sending', 'sent')`),
    index().on(t.status, t.nextTryAt),
  ],
);

/** The SDI's answers as the intermediary delivered them; the same notification twice is kept once. */
export const sdiNotifications = pgTable(
  "sdi_notifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    providerId: text().notNull().unique(),
    transmissionId: uuid()
      .notNull()
      .references(() => sdiTransmissions.id),
    /** RC, MC, NS, ... as the SDI names them. */
    type: text().notNull(),
    payload: jsonb().$type<unknown>().notNull(),
    receivedAt: createdAt(),
  },
  (t) => [index().on(t.transmissionId)],
);

// ---------------------------------------------------------------- after the sale: withdrawals, returns, refunds

/**
 * A consumer's withdrawal statement (Art. 11a CRD, Codice del Consumo art. 54-59), as received: written
 * once by server/after-sales/withdrawal.service.ts and never changed (a trigger refuses updates and deletes).
 * `lines` is the statement's own snapshot: which order lines, how many units, under which name.
 */
export const withdrawals = pgTable(
  "withdrawals",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** The same form sent twice (a double click, a retried post) is one statement. */
    submissionKey: text().notNull().unique(),
    name: text().notNull(),
    /** Where the acknowledgement went: the order's e-mail address. */
    contactEmail: text().notNull(),
    /** How the shop was contacted: "online-form" (this function). */
    channel: text().notNull(),
    lines: jsonb().$type<{ orderLineId: string; sku: string; name: string; quantity: number }[]>().notNull(),
    /** For an order not paid by card: where the money goes back (checked with its check digits). */
    refundIban: text(),
    locale: text().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.orderId, t.receivedAt)],
);

export const returnStatus = pgEnum("return_status", ["requested", "authorised", "received", "refunded", "refused"]);

/** A return of some of an order's units: one per withdrawal, or opened by the staff for a faulty item. */
export const returns = pgTable(
  "returns",
  {
    id: uuid().primaryKey().defaultRandom(),
    number: integer().notNull().unique().generatedAlwaysAsIdentity({ startWith: 1 }),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    withdrawalId: uuid()
      .unique()
      .references(() => withdrawals.id, { onDelete: "restrict" }),
    /** "withdrawal" or "faulty". */
    reason: text().notNull(),
    status: returnStatus().notNull().default("requested"),
    refusalReason: text(),
    /** The law's 14 days to refund count from the withdrawal (or from opening, for a faulty item). */
    refundDueAt: timestamp({ withTimezone: true }).notNull(),
    refundIban: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.orderId), index().on(t.status, t.refundDueAt)],
);

export const returnLines = pgTable(
  "return_lines",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    returnId: uuid()
      .notNull()
      .references(() => returns.id, { onDelete: "cascade" }),
    orderLineId: uuid()
      .notNull()
      .references(() => orderLines.id, { onDelete: "cascade" }),
    quantity: integer().notNull(),
    /** On receipt: units back on the shelf, and units written off as damaged (with the reason). */
    restockedQuantity: integer().notNull().default(0),
    damagedQuantity: integer().notNull().default(0),
    damageReason: text(),
  },
  (t) => [
    check("return_lines_quantity_positive", sql`${t.quantity} > 0`),
    check("return_lines_received_within", sql`${t.restockedQuantity} + ${t.damagedQuantity} <= ${t.quantity}`),
    unique().on(t.returnId, t.orderLineId),
  ],
);

export const refundStatus = pgEnum("refund_status", ["pending", "succeeded", "to_pay_back", "paid_back"]);

/**
 * Money going back for a return (at most one refund per return: the unique key makes two staff clicking
 * at once refund once). Card: through the payment provider, retried with the same idempotency key until it
 * succeeds. Cash on delivery and bank transfer: a transfer to the customer's IBAN that the staff mark paid.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    returnId: uuid()
      .notNull()
      .unique()
      .references(() => returns.id, { onDelete: "cascade" }),
    /** "card", "bank_transfer" (to the IBAN) or "gift_card" (all of it back on the gift card). */
    route: text().notNull(),
    status: refundStatus().notNull(),
    amountCents: integer().notNull(),
    /** Of `amountCents`, the original delivery cost (the whole order withdrawn). */
    deliveryCents: integer().notNull().default(0),
    /** Of `amountCents`, what went back to the gift card the order was partly paid with (decision 0097). */
    giftCardCents: integer().notNull().default(0),
    lines: jsonb().$type<{ orderLineId: string; quantity: number; amountCents: number }[]>().notNull(),
    iban: text(),
    idempotencyKey: text().notNull().unique(),
    providerRef: text(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    lastError: text(),
    actorUserId: text().references(() => users.id, { onDelete: "set null" }),
    doneAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("refunds_amount_positive", sql`${t.amountCents} > 0`),
    check("refunds_gift_card_share", sql`${t.giftCardCents} between 0 and ${t.amountCents}`),
    index("refunds_due")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index().on(t.orderId),
  ],
);

// ---------------------------------------------------------------- back-in-stock alerts (server/stock-alerts/)

/**
 * pending: a guest's alert waiting for the click in its confirmation mail; active: confirmed, waiting
 * for the stock; notified: the stock came back and its mail is queued (the alert's end); unsubscribed.
 */
export const stockAlertStatus = pgEnum("stock_alert_status", ["pending", "active", "notified", "unsubscribed"]);

export const stockAlerts = pgTable(
  "stock_alerts",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    variantId: integer()
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    /** Lower-cased. */
    email: text().notNull(),
    /** The language of the page where the alert was asked for: its mails speak it. */
    locale: text().notNull().default("it"),
    /** The signed-in customer who asked, if any (their account's address). */
    userId: text().references(() => users.id, { onDelete: "set null" }),
    status: stockAlertStatus().notNull().default("pending"),
    /** SHA-256 of the confirmation link's token (guests): one use, cleared on confirmation. */
    confirmTokenHash: text().unique(),
    confirmTokenExpiresAt: timestamp({ withTimezone: true }),
    /** The unsubscribe link's token, the same in every mail of this alert. */
    unsubscribeToken: text().notNull().unique(),
    /** The shop's public address when the alert was made: the base of the links in its mails. */
    siteUrl: text().notNull(),
    /** The last confirmation mail queued: a pending alert gets at most one per few minutes. */
    lastMailAt: timestamp({ withTimezone: true }),
    confirmedAt: timestamp({ withTimezone: true }),
    notifiedAt: timestamp({ withTimezone: true }),
    unsubscribedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One open alert per (variant, address): a second request finds the first.
    uniqueIndex("stock_alerts_open_per_variant_email")
      .on(t.variantId, t.email)
      .where(sql`${t.status} in ('pending', 'active')`),
    index().on(t.variantId, t.status),
  ],
);

// ---------------------------------------------------------------- product safety and recalls (server/product-safety/)

export const safetyContactRole = pgEnum("safety_contact_role", ["manufacturer", "responsible_person"]);

/**
 * A manufacturer or an EU responsible person (GPSR article 19), kept once and chosen per brand or per
 * product. Postal and electronic address are both required by the regulation.
 */
export const safetyContacts = pgTable(
  "safety_contacts",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    role: safetyContactRole().notNull(),
    /** Name, registered trade name or trade mark. */
    name: text().notNull(),
    /** Street, postcode, town, as on the label. */
    postalAddress: text().notNull(),
    /** ISO 3166-1 alpha-2: whether the manufacturer is established in the EU. */
    countryCode: text().notNull(),
    email: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("safety_contacts_country_code", sql`${t.countryCode} ~ '^[A-Z]{2}$'`), unique().on(t.role, t.name)],
);

/** A warning or piece of safety information as on labels and manuals, written once and used by many products. */
export const safetyWarnings = pgTable("safety_warnings", {
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  /** A short key the staff and the CSV name it by, e.g. "never-unattended". */
  code: text().notNull().unique(),
  textIt: text().notNull(),
  textEn: text().notNull(),
  createdAt: createdAt(),
});

export const productSafetyWarnings = pgTable(
  "product_safety_warnings",
  {
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    warningId: integer()
      .notNull()
      .references(() => safetyWarnings.id, { onDelete: "restrict" }),
    position: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.warningId] }), index().on(t.warningId)],
);

/**
 * A recall (GPSR articles 35-36) of some or all variants of a product, its notice in both languages in the
 * structure of Implementing Regulation (EU) 2024/1435. Written only by server/product-safety/recall.service.ts.
 */
export const productRecalls = pgTable(
  "product_recalls",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    hazardIt: text().notNull(),
    hazardEn: text().notNull(),
    whatToDoIt: text().notNull(),
    whatToDoEn: text().notNull(),
    remedyIt: text().notNull(),
    remedyEn: text().notNull(),
    actorUserId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.productId)],
);

/** The recalled variants: a variant is recalled once (a second recall of it is refused), and is no longer sold. */
export const productRecallVariants = pgTable(
  "product_recall_variants",
  {
    recallId: integer()
      .notNull()
      .references(() => productRecalls.id, { onDelete: "cascade" }),
    variantId: integer()
      .notNull()
      .unique()
      .references(() => productVariants.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.recallId, t.variantId] })],
);

/** Who was told of a recall, and when: one notice per buyer's address per recall. */
export const productRecallNotices = pgTable(
  "product_recall_notices",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    recallId: integer()
      .notNull()
      .references(() => productRecalls.id, { onDelete: "cascade" }),
    /** Lower-cased. */
    email: text().notNull(),
    locale: text().notNull().default("it"),
    outboxEmailId: bigint({ mode: "number" }).references(() => outboxEmails.id, { onDelete: "set null" }),
    notifiedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.recallId, t.email)],
);

// ------------------------------------------------ car-seat and stroller specifications (docs/decisions/0101-product-specifications.md)

/**
 * A car seat's or stroller's specifications as typed data, one row per product (none: the product shows no
 * specification table). Columns of the other kind stay null. Weights in grams, lengths in centimetres.
 */
export const productSpecs = pgTable(
  "product_specs",
  {
    productId: integer()
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    kind: text().$type<"car_seat" | "stroller">().notNull(),
    /** ECE R129 (i-Size): the child's stature the seat is approved for. */
    statureMinCm: integer(),
    statureMaxCm: integer(),
    /** ECE R44/04 group(s), e.g. "0+/1"; null when the seat is approved to R129 only. */
    r44Group: text(),
    hasIsofix: boolean(),
    rotates360: boolean(),
    ageMinMonths: integer(),
    ageMaxMonths: integer(),
    maxChildWeightGrams: integer(),
    /** The stroller's own weight. */
    weightGrams: integer(),
    foldedLengthCm: integer(),
    foldedWidthCm: integer(),
    foldedHeightCm: integer(),
    isFromBirth: boolean(),
    isCarrycotCompatible: boolean(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("product_specs_kind", sql`${t.kind} in ('car_seat', 'stroller')`),
    check("product_specs_stature_range", sql`${t.statureMinCm} is null or ${t.statureMaxCm} is null or ${t.statureMinCm} <= ${t.statureMaxCm}`),
    check("product_specs_age_range", sql`${t.ageMinMonths} is null or ${t.ageMaxMonths} is null or ${t.ageMinMonths} <= ${t.ageMaxMonths}`),
  ],
);

// ---------------------------------------------------------------- bundles (docs/decisions/0100-bundles.md)

/** How a bundle is priced: a price of its own, or a percent off its parts' sum (kept on its product row). */
export const bundlePriceRule = pgEnum("bundle_price_rule", ["fixed", "percent_off"]);

/**
 * A product sold as a set of other products ("Trio"): its product row holds its name, pictures and price;
 * its variants are the combinations the staff allow, with no stock of their own (bundle_variant_stock).
 */
export const bundles = pgTable(
  "bundles",
  {
    productId: integer()
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    priceRule: bundlePriceRule().notNull(),
    /** The bundle's price, VAT included, for the fixed rule. */
    fixedPriceCents: integer(),
    /** Off the parts' list prices, for the percent rule. */
    percentOff: integer().notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("bundles_fixed_price", sql`${t.priceRule} <> 'fixed' or ${t.fixedPriceCents} > 0`),
    check("bundles_percent_off_range", sql`${t.percentOff} between 0 and 90`),
  ],
);

/** A product in a bundle and how many of it one bundle holds. */
export const bundleParts = pgTable(
  "bundle_parts",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bundleProductId: integer()
      .notNull()
      .references(() => bundles.productId, { onDelete: "cascade" }),
    partProductId: integer()
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    quantity: integer().notNull().default(1),
    position: integer().notNull().default(0),
  },
  (t) => [
    check("bundle_parts_quantity_range", sql`${t.quantity} between 1 and 20`),
    check("bundle_parts_not_self", sql`${t.bundleProductId} <> ${t.partProductId}`),
    unique().on(t.bundleProductId, t.partProductId),
    index().on(t.partProductId),
  ],
);

/** A combination the staff allow (a variant of the bundle's product) and which variant of each part it takes. */
export const bundleOptionParts = pgTable(
  "bundle_option_parts",
  {
    bundleVariantId: integer()
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    bundlePartId: integer()
      .notNull()
      .references(() => bundleParts.id, { onDelete: "cascade" }),
    partVariantId: integer()
      .notNull()
      .references(() => productVariants.id, { onDelete: "restrict" }),
  },
  (t) => [primaryKey({ columns: [t.bundleVariantId, t.bundlePartId] }), index().on(t.partVariantId)],
);

// ---------------------------------------------------------------- mails that bring customers back (server/customer-mails/)

/**
 * A customer's objection to the shop's reminder and review-invitation mails (soft opt-in, art. 130 c.4
 * Codice Privacy; docs/decisions/0102-customer-mails-consent.md): one row per lower-cased address, kept
 * when the choice is taken back so the record says what was chosen and when. Written only by
 * server/customer-mails/mail-choice.service.ts.
 */
export const customerMailChoices = pgTable("customer_mail_choices", {
  email: text().primaryKey(),
  objects: boolean().notNull(),
  /** Where the choice was made: "account", "mail-link", "one-click". */
  source: text().notNull(),
  changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * One abandoned-cart reminder per cart and state of the cart (its updatedAt when mailed): a cart changed
 * afterwards is a new abandonment. Written only by server/customer-mails/cart-reminder.service.ts.
 */
export const cartReminders = pgTable(
  "cart_reminders",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    cartId: uuid()
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    cartUpdatedAt: timestamp({ withTimezone: true }).notNull(),
    email: text().notNull(),
    outboxEmailId: bigint({ mode: "number" }).references(() => outboxEmails.id, { onDelete: "set null" }),
    sentAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("cart_reminders_once_per_cart_state").on(t.cartId, t.cartUpdatedAt), index().on(t.cartId, t.sentAt)],
);

/** One review invitation per order. Written only by server/customer-mails/review-invitation.service.ts. */
export const reviewInvitations = pgTable("review_invitations", {
  orderId: uuid()
    .primaryKey()
    .references(() => orders.id, { onDelete: "cascade" }),
  email: text().notNull(),
  outboxEmailId: bigint({ mode: "number" }).references(() => outboxEmails.id, { onDelete: "set null" }),
  sentAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------- legal guarantee claims (server/guarantee/)

/** PostgreSQL's binary type: a claim's photos stay in the database, never in the public /media folder. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * received -> in_review -> repair | replacement | refund (the remedy decided) -> closed; received or
 * in_review may also be closed (no fault found). docs/decisions/0103-guarantee-claims.md.
 */
export const guaranteeClaimStatus = pgEnum("guarantee_claim_status", ["received", "in_review", "repair", "replacement", "refund", "closed"]);

/**
 * A buyer's claim under the legal guarantee (Codice del Consumo art. 128-135) for one line of a delivered
 * order. Claims, their photos and their history are written only by server/guarantee/claims.service.ts.
 */
export const guaranteeClaims = pgTable(
  "guarantee_claims",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity({ startWith: 101 }),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    orderLineId: uuid()
      .notNull()
      .references(() => orderLines.id, { onDelete: "cascade" }),
    userId: text().references(() => users.id, { onDelete: "set null" }),
    /** Lower-cased; where the status mails go. */
    email: text().notNull(),
    locale: text().notNull().default("it"),
    description: text().notNull(),
    status: guaranteeClaimStatus().notNull().default("received"),
    /** The staff's last word to the customer, shown on her page and in the status mail. */
    staffNote: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One open claim per order line: a second would only split the conversation.
    uniqueIndex("guarantee_claims_open_per_line")
      .on(t.orderLineId)
      .where(sql`${t.status} <> 'closed'`),
    index().on(t.orderId),
    index().on(t.status, t.createdAt),
  ],
);

export const guaranteeClaimPhotos = pgTable(
  "guarantee_claim_photos",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    claimId: integer()
      .notNull()
      .references(() => guaranteeClaims.id, { onDelete: "cascade" }),
    /** Re-encoded by sharp (WebP, at most 1600 px, no EXIF). */
    body: bytea().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.claimId)],
);

export const guaranteeClaimEvents = pgTable(
  "guarantee_claim_events",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    claimId: integer()
      .notNull()
      .references(() => guaranteeClaims.id, { onDelete: "cascade" }),
    fromStatus: guaranteeClaimStatus(),
    toStatus: guaranteeClaimStatus().notNull(),
    note: text(),
    actorUserId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.claimId, t.createdAt)],
);

// ---------------------------------------------------------------- gift cards (owned by server/gift-cards/gift-card.service.ts)

/** Where a card came from: bought online, sold at the counter, or a gift list's cash fund paid out. */
export const giftCardOrigin = pgEnum("gift_card_origin", ["online", "counter", "fund"]);
/** What moved a card's balance: issued, spent on an order, given back (order let go or goods refunded), expired, deactivated. */
export const giftCardMovementKind = pgEnum("gift_card_movement_kind", [
  "issue",
  "spend",
  "give_back",
  "refund",
  "expiry",
  "deactivation",
  "fund_contribution",
]);

/**
 * Multi-purpose vouchers (docs/decisions/0097-gift-cards.md): the code is kept only as a SHA-256 hash
 * (its last four characters for the staff); the balance moves only by one conditional UPDATE.
 */
export const giftCards = pgTable(
  "gift_cards",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    codeHash: text().notNull().unique(),
    /** The code's last four characters, to tell cards apart in the back office and on the customer's page. */
    codeTail: text().notNull(),
    origin: giftCardOrigin().notNull(),
    initialCents: integer().notNull(),
    balanceCents: integer().notNull(),
    /** The order that bought it online (null for the counter and funds); the card works once that order is paid. */
    purchaseOrderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    isActive: boolean().notNull().default(true),
    recipientName: text().notNull().default(""),
    recipientEmail: text(),
    message: text().notNull().default(""),
    /** The Italian day the mail goes to the recipient (null: printed, or mailed at once). */
    deliverOn: date({ mode: "string" }),
    mailedAt: timestamp({ withTimezone: true }),
    locale: text().notNull().default("it"),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    actorUserId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("gift_cards_balance", sql`${t.balanceCents} >= 0 and ${t.balanceCents} <= ${t.initialCents}`),
    check("gift_cards_initial_positive", sql`${t.initialCents} > 0`),
    index().on(t.codeTail),
    index().on(t.purchaseOrderId),
  ],
);

/** Every change of a card's balance, signed: the balance is always the sum of its movements. */
export const giftCardMovements = pgTable(
  "gift_card_movements",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    giftCardId: integer()
      .notNull()
      .references(() => giftCards.id, { onDelete: "cascade" }),
    kind: giftCardMovementKind().notNull(),
    amountCents: integer().notNull(),
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    actorUserId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.giftCardId, t.createdAt), index().on(t.orderId)],
);

// ---------------------------------------------------------------- loyalty card (server/loyalty/, docs/decisions/0099-loyalty-card.md)

/** A customer's loyalty card, joined by her own choice: its printed number (with a check digit) and its balance. */
export const loyaltyCards = pgTable(
  "loyalty_cards",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    /** 12 digits, the last a Luhn check digit (server/loyalty/loyalty-card-number.ts). */
    number: text().notNull().unique(),
    userId: text()
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The points not yet spent or expired: the sum of the entries' `remaining` (never negative). */
    balance: integer().notNull().default(0),
    /** When she joined, agreeing to the card's privacy text of `consentVersion`. */
    consentedAt: timestamp({ withTimezone: true }).notNull(),
    consentVersion: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [check("loyalty_cards_balance_non_negative", sql`${t.balance} >= 0`)],
);

/**
 * Every change to a card's points, who made it (the customer, the staff, a job) and why: the card's history
 * and its audit. An entry that adds points keeps what is left of them (`remaining`) until `expiresAt`.
 */
export const loyaltyEntries = pgTable(
  "loyalty_entries",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    cardId: integer()
      .notNull()
      .references(() => loyaltyCards.id, { onDelete: "cascade" }),
    /** order-earned, order-redeemed, order-returned, refund-taken-back, counter-earned, counter-redeemed, expired. */
    kind: text().notNull(),
    /** Signed: added points are positive. */
    points: integer().notNull(),
    remaining: integer().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }),
    actorKind: text().notNull(),
    actorUserId: text().references(() => users.id, { onDelete: "set null" }),
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    /** A till receipt's number and amount (points added at the counter). */
    receiptNumber: text(),
    receiptCents: integer(),
    /** An order's points (earned, taken back) are settled for its refunds up to this amount on the lines that earn. */
    settledRefundCents: integer(),
    note: text(),
    createdAt: createdAt(),
  },
  (t) => [
    check("loyalty_entries_remaining", sql`${t.remaining} >= 0 and ${t.remaining} <= greatest(${t.points}, 0)`),
    check("loyalty_entries_actor_kind", sql`${t.actorKind} in ('customer', 'staff', 'job')`),
    index().on(t.cardId, t.createdAt),
    index("loyalty_entries_expiring")
      .on(t.expiresAt)
      .where(sql`${t.remaining} > 0`),
    uniqueIndex("loyalty_entries_receipt")
      .on(t.receiptNumber)
      .where(sql`${t.kind} = 'counter-earned'`),
    uniqueIndex("loyalty_entries_order_earned")
      .on(t.orderId)
      .where(sql`${t.kind} = 'order-earned'`),
    index().on(t.orderId),
  ],
);

/** The points statement sent before points expire: one per card and expiry day. */
export const loyaltyExpiryNotices = pgTable(
  "loyalty_expiry_notices",
  {
    cardId: integer()
      .notNull()
      .references(() => loyaltyCards.id, { onDelete: "cascade" }),
    expiresOn: date({ mode: "string" }).notNull(),
    points: integer().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.cardId, t.expiresOn] })],
);

export const exchangeStatus = pgEnum("exchange_status", ["reserved", "released", "fulfilled"]);

/**
 * A returned order line swapped for another variant of the same product (docs/decisions/0105-exchanges.md),
 * written only by server/after-sales/exchanges.service.ts. The replacement's units are taken from stock
 * when the return is opened (reserved), given back if it is refused or not sent back in time (released),
 * and become the replacement order's when the return is received (fulfilled).
 */
export const returnExchanges = pgTable(
  "return_exchanges",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    returnId: uuid()
      .notNull()
      .references(() => returns.id, { onDelete: "cascade" }),
    orderLineId: uuid()
      .notNull()
      .references(() => orderLines.id, { onDelete: "cascade" }),
    quantity: integer().notNull(),
    /** The variant sent in exchange, with its snapshot as the replacement order will list it. */
    variantId: integer().references(() => productVariants.id, { onDelete: "set null" }),
    sku: text().notNull(),
    colour: text(),
    size: text(),
    status: exchangeStatus().notNull().default("reserved"),
    /** The order that sends the replacement, once the return is received. */
    replacementOrderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("return_exchanges_quantity_positive", sql`${t.quantity} > 0`),
    unique().on(t.returnId, t.orderLineId),
    index().on(t.replacementOrderId),
    index("return_exchanges_reserved")
      .on(t.createdAt)
      .where(sql`${t.status} = 'reserved'`),
  ],
);

// ---------------------------------------------------------------- vouchers: gift cards bought online, gift-list funds (server/vouchers/)

/** A voucher line's kind: a gift card bought online, or a contribution to a gift list's cash fund (docs/decisions/0106-voucher-lines.md). */
export const voucherKind = pgEnum("voucher_kind", ["gift_card", "fund_contribution"]);

/**
 * A gift list's cash fund ("per la cameretta", docs/decisions/0098-gift-list-funds.md): guests contribute amounts,
 * which go onto one gift card of the list's owner (issued with the first paid contribution). Owned by server/vouchers/.
 */
export const giftListFunds = pgTable(
  "gift_list_funds",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    giftListId: uuid()
      .notNull()
      .references(() => giftLists.id, { onDelete: "cascade" }),
    title: text().notNull(),
    description: text().notNull().default(""),
    /** Optional: the page shows collected / target when set. */
    targetCents: integer(),
    /** The owner's card the paid contributions go onto; null until the first one is paid. */
    giftCardId: integer().references(() => giftCards.id, { onDelete: "set null" }),
    collectedCents: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check("gift_list_funds_target_positive", sql`${t.targetCents} is null or ${t.targetCents} > 0`),
    check("gift_list_funds_collected_non_negative", sql`${t.collectedCents} >= 0`),
    index().on(t.giftListId),
  ],
);

/**
 * A voucher line in a cart: no variant, no stock, no VAT, quantity 1. Its amount is the buyer's choice within
 * the shop's limits, checked again at checkout. Owned by server/vouchers/voucher.service.ts.
 */
export const cartVouchers = pgTable(
  "cart_vouchers",
  {
    id: uuid().primaryKey().defaultRandom(),
    cartId: uuid()
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    kind: voucherKind().notNull(),
    amountCents: integer().notNull(),
    /** Gift card: who gets it; fund contribution: the giver's name. */
    senderName: text().notNull().default(""),
    recipientName: text().notNull().default(""),
    /** Null: the buyer prints the card herself (no mail to the recipient). */
    recipientEmail: text(),
    message: text().notNull().default(""),
    /** The Italian day the card's mail goes out; null when printed. */
    deliverOn: date({ mode: "string" }),
    giftListFundId: integer().references(() => giftListFunds.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    check("cart_vouchers_amount_positive", sql`${t.amountCents} > 0`),
    check("cart_vouchers_fund_kind", sql`(${t.kind} = 'fund_contribution') = (${t.giftListFundId} is not null)`),
    index().on(t.cartId),
  ],
);

/** A voucher line of an order: a copy of the cart's, and the card it became once the order is paid. */
export const orderVouchers = pgTable(
  "order_vouchers",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: voucherKind().notNull(),
    amountCents: integer().notNull(),
    senderName: text().notNull().default(""),
    recipientName: text().notNull().default(""),
    recipientEmail: text(),
    message: text().notNull().default(""),
    deliverOn: date({ mode: "string" }),
    giftListFundId: integer().references(() => giftListFunds.id, { onDelete: "set null" }),
    /** Set once, when the order is paid: the card issued (gift card) or topped up (fund). */
    giftCardId: integer().references(() => giftCards.id, { onDelete: "set null" }),
    /** The order's paid effect has handled this line: never twice. */
    settledAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [check("order_vouchers_amount_positive", sql`${t.amountCents} > 0`), index().on(t.orderId), index().on(t.giftListFundId, t.createdAt)],
);
