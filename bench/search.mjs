// Search latency on a generated catalogue of 20,000 products. Builds the catalogue in an
// in-memory PGlite (or in BENCH_DATABASE_URL's PostgreSQL, which it empties), then times whole search
// pages (getListing: count, facets, ranked page of 24 cards) for several kinds of search, against the
// plain listing without a search as the baseline measured in the same run. Prints a table and writes
// bench/results/search-{pglite,postgres}.json. `BENCH_PRODUCTS=5000` for a smaller catalogue.
import { spawnSync } from "node:child_process";
import { writeResult } from "./lib/results.mjs";

// The services are TypeScript with extensionless relative imports: run this file again under tsx.
if (!process.env.BENCH_UNDER_TSX) {
  const run = spawnSync(process.execPath, ["--import", "tsx", import.meta.filename, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_UNDER_TSX: "1" },
  });
  process.exit(run.status ?? 1);
}

const productCount = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const iterations = Number(process.env.BENCH_ITERATIONS ?? 30);

const { PGlite } = await import("@electric-sql/pglite");
const { connectPostgres, pgliteExtensions, wrapPglite } = await import("#server/db/client.ts");
const { migrateDatabase } = await import("#server/db/migrate.ts");
const schema = await import("#server/db/schema.ts");
const { refreshProductSearch } = await import("#server/catalog/search.service.ts");
const { getListing } = await import("#server/catalog/listing.service.ts");
const { parseListingQuery } = await import("#server/catalog/listing.ts");
const { sql } = await import("drizzle-orm");

const { productNouns: nouns, productAdjectives: adjectives } = await import("./lib/catalogue-words.ts");
const brandNames = [
  "Chicco",
  "Cam",
  "Peg Perego",
  "Foppapedretti",
  "Inglesina",
  "Cybex",
  "Stokke",
  "Joie",
  "BabyBjörn",
  "Nuvita",
  "Brevi",
  "Italbaby",
];
const colours = ["white", "black", "brown", "blue"];
const sizes = ["S", "M", "L", "XL", "0-6 mesi", "6-18 mesi"];

/** mulberry32: the same catalogue on every run. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function inBatches(rows, size, insert) {
  for (let start = 0; start < rows.length; start += size) await insert(rows.slice(start, start + size));
}

async function generateCatalogue(db) {
  const random = seeded(42);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const categoryRows = await db
    .insert(schema.categories)
    .values(
      ["A-spasso", "Bagnetto", "arredamento", "sicurezza", "pappa", "offerte"].map((slug, position) => ({
        slug,
        nameIt: slug,
        nameEn: slug,
        position,
      })),
    )
    .returning();
  const brandRows = await db
    .insert(schema.brands)
    .values(brandNames.map((name) => ({ name, slug: name.toLowerCase().replace(/[^a-z]+/g, "-") })))
    .returning();
  const products = [];
  const categoryLinks = [];
  const brandLinks = [];
  for (let id = 1; id <= productCount; id++) {
    const [nounIt, nounEn] = pick(nouns);
    const [adjectiveIt, adjectiveEn] = pick(adjectives);
    const brand = pick(brandRows);
    const category = categoryRows[id % 5];
    products.push({
      id,
      sku: `BENCH-${id}`,
      nameIt: `${nounIt} ${adjectiveIt} ${brand.name} ${id}`,
      nameEn: `${brand.name} ${adjectiveEn} ${nounEn} ${id}`,
      shortDescriptionIt: `${nounIt} ${adjectiveIt}, perfetto per i primi anni del bambino.`,
      shortDescriptionEn: `A ${adjectiveEn} ${nounEn}, made for a baby's first years.`,
      priceCents: 500 + Math.floor(random() * 150_000),
      discountPercent: random() < 0.2 ? pick([5, 10, 15, 20, 30, 50]) : 0,
      isNew: random() < 0.1,
      saleCount: Math.floor(random() ** 2 * 400),
      rating: 2 + Math.floor(random() * 4),
      primaryCategoryId: category.id,
    });
    categoryLinks.push({ productId: id, categoryId: category.id });
    brandLinks.push({ productId: id, brandId: brand.id, position: 0 });
  }
  await inBatches(products, 1000, (batch) => db.insert(schema.products).values(batch));
  await inBatches(categoryLinks, 5000, (batch) => db.insert(schema.productCategories).values(batch));
  await inBatches(brandLinks, 5000, (batch) => db.insert(schema.productBrands).values(batch));

  const colourRows = [];
  for (let id = 1; id <= productCount; id++) if (id % 3 !== 0) colourRows.push({ productId: id, colour: colours[id % colours.length], position: 0 });
  const colourIds = new Map();
  await inBatches(colourRows, 5000, async (batch) => {
    for (const row of await db.insert(schema.productColours).values(batch).returning()) colourIds.set(row.productId, row.id);
  });
  const variants = [];
  for (let id = 1; id <= productCount; id++) {
    const colourId = colourIds.get(id) ?? null;
    const variantSizes = colourId === null ? ["TAGLIA_UNICA"] : [sizes[id % sizes.length], sizes[(id + 1) % sizes.length]];
    variantSizes.forEach((size, position) =>
      variants.push({ productId: id, colourId, size, sku: `BENCH-${id}-${position}`, stock: Math.floor(random() * 20), position }),
    );
  }
  await inBatches(variants, 5000, (batch) => db.insert(schema.productVariants).values(batch));
}

const cases = [
  { name: "no search (baseline)", query: "" },
  { name: "one word", query: "search=passeggino" },
  { name: "two words", query: "search=culla%20legno" },
  { name: "plural -> singular", query: "search=passeggini%20leggeri" },
  { name: "accents", query: "search=babybjorn" },
  { name: "typo (trigram fallback)", query: "search=pasegino" },
  { name: "no match", query: "search=zanzariera%20xyz" },
  { name: "search + filters + sort", query: "search=seggiolino%20auto&tag=chicco&color=black&sort=priceLowToHigh" },
  { name: "English, page 3", query: "search=strollers&page=3", locale: "en" },
];

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const handle = process.env.BENCH_DATABASE_URL
  ? connectPostgres(process.env.BENCH_DATABASE_URL, 4)
  : wrapPglite(await PGlite.create({ extensions: pgliteExtensions }));
const database = handle.kind === "pglite" ? "PGlite (in memory)" : "PostgreSQL";
try {
  if (handle.kind === "postgres")
    await handle.db.execute(sql`drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public`);
  await migrateDatabase(handle);
  let started = performance.now();
  await generateCatalogue(handle.db);
  const generateMs = Math.round(performance.now() - started);
  started = performance.now();
  const refreshed = await refreshProductSearch(handle.db);
  const refreshMs = Math.round(performance.now() - started);
  console.log(`${database}: ${refreshed} products generated in ${generateMs} ms, search columns refreshed in ${refreshMs} ms`);

  const now = new Date();
  const rows = [];
  for (const benchCase of cases) {
    const query = parseListingQuery(new URLSearchParams(benchCase.query));
    const options = { scope: { kind: "shop", layout: "grid" }, query, locale: benchCase.locale ?? "it", now };
    let listing = await getListing(handle.db, options); // warm-up
    const timings = [];
    for (let run = 0; run < iterations; run++) {
      const start = performance.now();
      listing = await getListing(handle.db, options);
      timings.push(performance.now() - start);
    }
    timings.sort((a, b) => a - b);
    rows.push({
      case: benchCase.name,
      mode: listing.searchMode ?? "-",
      results: listing.total,
      p50Ms: Math.round(percentile(timings, 50)),
      p95Ms: Math.round(percentile(timings, 95)),
      maxMs: Math.round(timings.at(-1)),
    });
  }
  const baseline = rows[0].p95Ms || 1;
  for (const row of rows) row.p95VsBaseline = `${(row.p95Ms / baseline).toFixed(2)}x`;
  console.log(`\nSearch pages (getListing: count, 4 facet counts, 24 ranked cards), ${iterations} runs each, ${productCount} products, ${database}`);
  console.table(rows);
  const summary = rows.slice(1).map((row) => ({
    measure: `search page, ${row.case}, ${productCount} products, ${handle.kind}`,
    figure: `p95 ${row.p95Ms} ms`,
    baseline: `p95 ${rows[0].p95Ms} ms (${rows[0].case})`,
    ratio: Math.round((row.p95Ms / (rows[0].p95Ms || 1)) * 100) / 100,
  }));
  writeResult(`search-${handle.kind}`, { database, products: productCount, iterations, generateMs, refreshMs, rows }, summary);
} finally {
  await handle.close();
}
