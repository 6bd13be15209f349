/**
 * The catalogue of bench/scale.mjs (TypeScript, run with `node --import tsx`): on BENCH_DATABASE_URL's server,
 * a database migrated with the shop's migrations and filled, by generate_series in SQL, with
 * BENCH_SCALE_PRODUCTS products (default 100,000; colours, sizes, pictures, brands, categories, related
 * products) and BENCH_SCALE_ORDERS orders (default 1,000,000, one or two lines each). Deterministic: the
 * same rows on every run. With `keep`, a database of that name made by these same statements is reused
 * (migrations applied again), else it is made afresh. Prints one JSON line: { databaseUrl, reused, timings }.
 *
 *   node --import tsx bench/lib/scale-catalogue.ts <database name> [keep]
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { placeholderImageKey } from "#common/media.ts";
import { sampleBrands } from "#server/db/sample-catalogue.ts";
import { taxonomy } from "#server/catalog/taxonomy.ts";
import { connectPostgres } from "#server/db/client.ts";
import { migrateDatabase } from "#server/db/migrate.ts";
import { bundledExchangeRates } from "#server/db/seed.ts";
import { defaultSettings } from "#server/settings/settings.ts";
import { productAdjectives as adjectives, productNouns as nouns } from "./catalogue-words";

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const productCount = Number(process.env.BENCH_SCALE_PRODUCTS ?? 100_000);
const orderCount = Number(process.env.BENCH_SCALE_ORDERS ?? 1_000_000);
const [databaseName, keepFlag] = process.argv.slice(2);
if (!databaseName || !/^[a-z0-9_]+$/.test(databaseName)) throw new Error("usage: scale-catalogue.ts <database name> [keep]");
const keep = keepFlag === "keep";

function withDatabase(url: string, name: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
const databaseUrl = withDatabase(adminUrl, databaseName);

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A complete catalogue of the wanted size is already there (a kept database from an earlier run). */
async function isComplete(): Promise<boolean> {
  const exists = await withClient(
    adminUrl,
    async (client) => (await client.query("select 1 from pg_database where datname = $1", [databaseName])).rowCount === 1,
  );
  if (!exists) return false;
  return withClient(databaseUrl, async (client) => {
    const marker = await client.query<{ present: boolean }>("select to_regclass('public.bench_scale_marker') is not null as present");
    if (!marker.rows[0]?.present) return false;
    // Read as JSON: a marker left by an older version of this file may lack the column.
    const { rows } = await client.query<{ generated_by: string | null }>(
      "select to_jsonb(marker) ->> 'generated_by' as generated_by from bench_scale_marker as marker",
    );
    return rows[0]?.generated_by === generationFingerprint;
  });
}

const scaleColours = ["white", "black", "brown", "blue"];
const scaleSizes = ["0-6 mesi", "6-18 mesi", "18mesi +", "S", "M", "L", "XL", "150ml", "250ml", "60x120 cm", "70x140 cm", "12 pollici"];
const generatedBrands = 180;

const textArray = (values: string[]) => `array[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", ")}]`;

/** Every statement, in order: the rows are derived from the row number through hashint4, never random(). */
function generationSql(): { name: string; sql: string }[] {
  const r = (seed: string, salt: number, n: number | string) => `((hashint4(${seed} * 31 + ${salt})::bigint & 2147483647) % ${n})::int`;
  return [
    {
      name: "taxonomy, brands, settings",
      sql: `
        insert into categories (slug, name_it, name_en, position) values
          ${taxonomy.map((category) => `('${category.slug}', '${category.nameIt.replaceAll("'", "''")}', '${category.nameEn.replaceAll("'", "''")}', ${category.position})`).join(",\n")};
        insert into subcategories (category_id, slug, name_it, name_en, position) values
          ${taxonomy
            .flatMap((category) =>
              category.subcategories.map(
                (sub) =>
                  `((select id from categories where slug = '${category.slug}'), '${sub.slug}', '${sub.nameIt.replaceAll("'", "''")}', '${sub.nameEn.replaceAll("'", "''")}', ${sub.position})`,
              ),
            )
            .join(",\n")};
        insert into brands (slug, name, marks_on_request) values
          ${sampleBrands.map((brand) => `('${brand.slug}', '${brand.name.replaceAll("'", "''")}', ${brand.marksOnRequest})`).join(",\n")};
        insert into brands (slug, name) select 'marca-' || i, 'Marca ' || i from generate_series(1, ${generatedBrands}) as i;
        insert into shop_settings (key, value) values
          ${Object.entries(defaultSettings)
            .map(([key, value]) => `('${key}', '${JSON.stringify(value).replaceAll("'", "''")}'::jsonb)`)
            .join(",\n")};
        insert into exchange_rates (currency, rate_per_eur, source) values
          ${bundledExchangeRates.map((rate) => `('${rate.currency}', ${rate.ratePerEur}, 'bundled')`).join(", ")};`,
    },
    {
      name: `${productCount} products`,
      sql: `
        with words as (
          select ${textArray(nouns.map(([it]) => it))} as nouns_it, ${textArray(nouns.map(([, en]) => en))} as nouns_en,
                 ${textArray(adjectives.map(([it]) => it))} as adjectives_it, ${textArray(adjectives.map(([, en]) => en))} as adjectives_en
        ), subs as (
          select array_agg(id order by id) as ids, array_agg(category_id order by id) as category_ids, count(*)::int as n from subcategories
        ), brand_names as (
          select array_agg(name order by id) as names, count(*)::int as n from brands where not marks_on_request
        )
        insert into products (id, sku, name_it, name_en, short_description_it, short_description_en, full_description_it, full_description_en,
          price_cents, discount_percent, is_new, is_free_shipping, rating, sale_count, primary_category_id, subcategory_id,
          length_mm, width_mm, height_mm, weight_grams, material_it, material_en, created_at, updated_at)
        select i, 'SCALE-' || i,
          nouns_it[noun] || ' ' || adjectives_it[adjective] || ' ' || brand || ' ' || model,
          brand || ' ' || model || ' ' || adjectives_en[adjective] || ' ' || nouns_en[noun],
          nouns_it[noun] || ' ' || adjectives_it[adjective] || ', perfetto per i primi anni del bambino.',
          'A ' || adjectives_en[adjective] || ' ' || nouns_en[noun] || ', made for a baby''s first years.',
          repeat('Descrizione completa del prodotto, materiali e istruzioni di sicurezza. ', 8),
          repeat('Full description of the product, materials and safety instructions. ', 8),
          500 + ${r("i", 1, 150000)},
          case when ${r("i", 2, 5)} = 0 then (array[5, 10, 15, 20, 30, 50])[1 + ${r("i", 3, 6)}] else 0 end,
          ${r("i", 4, 10)} = 0, ${r("i", 5, 8)} = 0, 2 + ${r("i", 6, 4)}, ${r("i", 7, 20)} * ${r("i", 8, 20)},
          subs.category_ids[sub], subs.ids[sub],
          400 + ${r("i", 9, 800)}, 300 + ${r("i", 10, 500)}, 300 + ${r("i", 11, 900)}, 500 + ${r("i", 12, 15000)}, 'Alluminio', 'Aluminium',
          now() - make_interval(secs => i), now() - make_interval(secs => i)
        from generate_series(1, ${productCount}) as i
        cross join words cross join subs cross join brand_names
        cross join lateral (select 1 + ${r("i", 13, nouns.length)} as noun, 1 + ${r("i", 14, adjectives.length)} as adjective,
          1 + ${r("i", 15, "subs.n")} as sub, brand_names.names[1 + ${r("i", 16, "brand_names.n")}] as brand,
          -- A model name ("K42"): 2,600 of them, as a real catalogue has, rather than one word per product.
          chr(65 + ${r("i", 17, 26)}) || ${r("i", 18, 100)} as model) as pick;
        select setval(pg_get_serial_sequence('products', 'id'), ${productCount + 1}, false);`,
    },
    {
      name: "categories and brands of each product",
      sql: `
        insert into product_categories (product_id, category_id, position) select id, primary_category_id, 0 from products;
        -- One product in five is also in a second category.
        insert into product_categories (product_id, category_id, position)
          select p.id, c.ids[1 + ${r("p.id", 20, "c.n")}], 1
          from products p cross join (select array_agg(id order by id) as ids, count(*)::int as n from categories where slug <> 'offerte') as c
          where ${r("p.id", 21, 5)} = 0
          on conflict do nothing;
        -- The brand named in the product's name (the same pick as above, over the same ordered list).
        insert into product_brands (product_id, brand_id, position)
          select p.id, b.ids[1 + ${r("p.id", 16, "b.n")}], 0
          from products p cross join (select array_agg(id order by id) as ids, count(*)::int as n from brands where not marks_on_request) as b
          on conflict do nothing;`,
    },
    {
      name: "colours, sizes, pictures, related products",
      sql: `
        -- 0 to 3 colours per product.
        insert into product_colours (product_id, colour, position)
          select p.id, (${textArray(scaleColours)})[1 + (${r("p.id", 30, 4)} + k) % 4], k
          from products p cross join lateral generate_series(0, ${r("p.id", 31, 4)} - 1) as k;
        -- Per colour (or once without colours) one to three sizes; one product in three without colours is one size.
        insert into product_variants (product_id, colour_id, size, sku, stock, is_preorder, preorder_days, position)
          select p.id, c.id,
            case when one_size then 'TAGLIA_UNICA' else (${textArray(scaleSizes)})[1 + (${r("p.id", 32, scaleSizes.length)} + k) % ${scaleSizes.length}] end,
            'SCALE-' || p.id || '-' || coalesce(c.position, 9) || '-' || k,
            ${r("p.id * 7 + k + coalesce(c.position, 0)", 33, 12)},
            ${r("p.id", 34, 20)} = 0, case when ${r("p.id", 34, 20)} = 0 then 30 end,
            coalesce(c.position, 0) * 10 + k
          from products p
          left join product_colours c on c.product_id = p.id
          cross join lateral (select c.id is null and ${r("p.id", 35, 3)} = 0 as one_size) as shape
          cross join lateral generate_series(0, case when shape.one_size then 0 else ${r("p.id", 36, 3)} end) as k;
        insert into product_images (product_id, colour_id, storage_key, width, height, alt_it, alt_en, position)
          select id, null, '${placeholderImageKey}', 800, 800, '', '', 0 from products;
        insert into product_images (product_id, colour_id, storage_key, width, height, alt_it, alt_en, position)
          select product_id, id, '${placeholderImageKey}', 800, 800, '', '', 1 + position from product_colours;
        insert into product_relations (product_id, related_product_id, position)
          select p.id, related, k
          from products p cross join generate_series(1, 4) as k
          cross join lateral (select 1 + (p.id + ${r("p.id", 40, 5000)} * k) % ${productCount} as related) as pick
          where related <> p.id
          on conflict do nothing;`,
    },
    {
      name: `${orderCount} orders`,
      sql: `
        insert into orders (id, idempotency_key, status, locale, email, phone, first_name, last_name, street, house_number, postcode, city,
          province, delivery_method, payment_method, subtotal_cents, shipping_cents, total_cents, paid_at, created_at, updated_at)
        select md5('scale-order-' || i)::uuid, 'scale-' || i,
          (array['completed', 'completed', 'completed', 'shipped', 'paid', 'cancelled', 'expired', 'awaiting_payment']::order_status[])[1 + ${r("i", 50, 8)}],
          case when ${r("i", 51, 5)} = 0 then 'en' else 'it' end,
          'cliente' || (i % 60000) || '@example.com', '+39 081 000 ' || lpad((i % 10000)::text, 4, '0'), 'Cliente', 'Numero ' || (i % 60000),
          'Via Roma', (1 + i % 200)::text, '80100', 'Napoli', 'NA',
          (array['standard', 'local_delivery', 'collection']::delivery_method[])[1 + ${r("i", 52, 3)}],
          (array['card', 'card', 'bank_transfer', 'cash_on_delivery']::payment_method[])[1 + ${r("i", 53, 4)}],
          amount, 690, amount + 690,
          created - interval '5 minutes', created, created
        from generate_series(1, ${orderCount}) as i
        cross join lateral (select 2000 + ${r("i", 54, 60000)} as amount, now() - make_interval(mins => i) as created) as figures;`,
    },
    {
      name: "order lines",
      sql: `
        insert into order_lines (order_id, product_id, variant_id, sku, name, quantity, list_price_cents, unit_price_cents, line_total_cents)
        select md5('scale-order-' || i)::uuid, v.product_id, v.id, v.sku, 'Prodotto ' || v.product_id, 1 + ${r("i", 60, 2)}, 4990, 4990, 4990 * (1 + ${r("i", 60, 2)})
        from generate_series(1, ${orderCount}) as i
        cross join lateral generate_series(0, ${r("i", 61, 2)}) as k
        join product_variants v on v.id = 1 + ${r("i * 3 + k", 62, "(select max(id) from product_variants)")};`,
    },
    { name: "search columns and word list", sql: "select refresh_product_search(null);" },
    // The listing rows are written by triggers, which the bulk load skips: once here, for every product.
    { name: "listing rows", sql: "select refresh_product_listing(null);" },
  ];
}

/** The generation statements themselves (sizes included): a kept database made by other ones is made again. */
const generationFingerprint = createHash("sha1").update(JSON.stringify(generationSql())).digest("hex");

const timings: Record<string, number> = {};
async function timed(name: string, work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  timings[name] = Math.round(performance.now() - started);
  process.stderr.write(`  ${name}: ${(timings[name] / 1000).toFixed(1)} s\n`);
}

const reused = keep && (await isComplete());
if (!reused) {
  await withClient(adminUrl, async (client) => {
    await client.query(`drop database if exists "${databaseName}" with (force)`);
    await client.query(`create database "${databaseName}"`);
  });
}
const handle = connectPostgres(databaseUrl, 1);
try {
  await timed("migrations", () => migrateDatabase(handle));
} finally {
  await handle.close();
}
if (!reused) {
  await withClient(databaseUrl, async (client) => {
    // Bulk loading: foreign-key checks and the catalogue-version triggers are skipped (the rows are made consistent).
    await client.query("set session_replication_role = replica");
    for (const step of generationSql()) await timed(step.name, () => client.query(step.sql));
    await client.query("set session_replication_role = origin");
    // The search refresh rewrote every product row: compact the table, as autovacuum would over time.
    await timed("vacuum", async () => {
      await client.query("vacuum full products");
      await client.query("vacuum analyze");
    });
    await client.query(`create table bench_scale_marker as select '${generationFingerprint}'::text as generated_by, now() as generated_at`);
  });
}
process.stdout.write(`${JSON.stringify({ databaseUrl, reused, productCount, orderCount, timings })}\n`);
