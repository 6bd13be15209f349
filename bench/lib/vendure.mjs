// Vendure 3.7.3 beside the shop (bench/vendure-side-by-side.mjs): installed from npm into VENDURE_DIR (outside
// this repository), populated on its own PostgreSQL database and started in its own process
// (lib/vendure-app.mjs); then a signed-in customer and the shop-API requests a storefront sends for her.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { adminDatabaseUrl } from "./scale-database.mjs";
import { freePort, root } from "./shop-server.mjs";
import { collections, productSlug } from "./vendure-catalogue.mjs";

export const vendureVersion = "3.7.3";
const appScript = path.join(root, "bench/lib/vendure-app.mjs");

/** Installs @vendure/core and the PostgreSQL driver from npm into `vendureDir`, unless that version is there. */
export function installVendure(vendureDir) {
  const installed = path.join(vendureDir, "node_modules/@vendure/core/package.json");
  if (fs.existsSync(installed) && JSON.parse(fs.readFileSync(installed, "utf8")).version === vendureVersion) return;
  fs.mkdirSync(vendureDir, { recursive: true });
  const manifest = path.join(vendureDir, "package.json");
  if (!fs.existsSync(manifest)) fs.writeFileSync(manifest, `${JSON.stringify({ name: "vendure-bench", private: true }, null, 2)}\n`);
  console.log(`installing @vendure/core@${vendureVersion} into ${vendureDir}...`);
  // bcrypt's install script only checks its prebuilt binaries, which it loads at run time either way.
  const install = spawnSync("npm", ["install", "--no-audit", "--no-fund", `@vendure/core@${vendureVersion}`, "pg@8"], {
    cwd: vendureDir,
    stdio: "inherit",
  });
  if (install.status !== 0) throw new Error(`npm install in ${vendureDir} failed (exit ${install.status})`);
}

const databaseUrlOf = (name) => {
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function withAdminClient(work) {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Whether `databaseName` holds a populated Vendure catalogue of `products` products. */
export async function isPopulated(databaseName, products) {
  const exists = await withAdminClient(
    async (client) => (await client.query("select 1 from pg_database where datname = $1", [databaseName])).rowCount === 1,
  );
  if (!exists) return false;
  const client = new pg.Client({ connectionString: databaseUrlOf(databaseName) });
  await client.connect();
  try {
    const table = await client.query("select to_regclass('public.product') is not null as present");
    if (!table.rows[0].present) return false;
    const { rows } = await client.query('select count(*)::int as n from product where "deletedAt" is null');
    const index = await client.query('select count(distinct "productId")::int as n from search_index_item');
    return rows[0].n === products && index.rows[0].n === products;
  } finally {
    await client.end();
  }
}

/** Makes `databaseName` afresh and fills it through Vendure's own populate() and product import (a few minutes). */
export async function populateVendure({ vendureDir, databaseName, products }) {
  await dropVendureDatabase(databaseName);
  await withAdminClient((client) => client.query(`create database "${databaseName}"`));
  const started = performance.now();
  const port = await freePort();
  const run = spawnSync(process.execPath, [appScript, "populate", databaseName, String(products)], {
    cwd: vendureDir,
    env: { ...process.env, VENDURE_DIR: vendureDir, VENDURE_DATABASE_URL: adminDatabaseUrl, VENDURE_POPULATE_PORT: String(port) },
    stdio: "inherit",
  });
  if (run.status !== 0) throw new Error(`Vendure's populate failed (exit ${run.status})`);
  if (!(await isPopulated(databaseName, products))) throw new Error(`Vendure's populate left fewer than ${products} products indexed`);
  return Math.round((performance.now() - started) / 1000);
}

export function dropVendureDatabase(databaseName) {
  return withAdminClient((client) => client.query(`drop database if exists "${databaseName}" with (force)`));
}

/** POSTs a GraphQL document to `url`; returns { data, token } (the session token Vendure answers with), throws on errors. */
export async function graphql(url, query, variables = {}, token = "") {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const answer = await response.json();
  if (!response.ok || answer.errors) throw new Error(`${url}: ${response.status} ${JSON.stringify(answer.errors ?? answer).slice(0, 300)}`);
  return { data: answer.data, token: response.headers.get("vendure-auth-token") ?? token };
}

/** { baseUrl, shopApiUrl, pid, stop } of Vendure's server started on `databaseName` (already populated). */
export async function startVendure({ vendureDir, databaseName }) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [appScript, "serve", databaseName, String(port)], {
    cwd: vendureDir,
    env: { ...process.env, NODE_ENV: "production", VENDURE_DIR: vendureDir, VENDURE_DATABASE_URL: adminDatabaseUrl },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const shopApiUrl = `${baseUrl}/shop-api`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Vendure exited during start-up: code ${child.exitCode}`);
    try {
      await graphql(shopApiUrl, "{ activeChannel { code } }");
      break;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`Vendure did not answer within 120 s (${error.message})`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return {
    baseUrl,
    shopApiUrl,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

// What a storefront asks for her, one document per page, her order's summary (the header's cart) in each.
const activeOrderFields = `activeOrder { id code state totalQuantity subTotalWithTax currencyCode
  lines { id quantity linePriceWithTax productVariant { id name sku } featuredAsset { preview } } }`;
export const vendureQueries = {
  category: `query CollectionPage($slug: String!, $skip: Int!) {
    collection(slug: $slug) { id name slug breadcrumbs { id name slug } children { id name slug } }
    search(input: { collectionSlug: $slug, groupByProduct: true, take: 24, skip: $skip }) {
      totalItems
      items { productId productName slug productAsset { id preview } currencyCode inStock
        priceWithTax { ... on PriceRange { min max } ... on SinglePrice { value } } }
      facetValues { count facetValue { id name facet { id name } } }
    }
    ${activeOrderFields}
  }`,
  product: `query ProductPage($slug: String!) {
    product(slug: $slug) { id name slug description
      featuredAsset { id preview } assets { id preview }
      collections { id name slug }
      facetValues { id name facet { id name } }
      optionGroups { id code name options { id code name } }
      variants { id name sku priceWithTax currencyCode stockLevel options { id code name } }
    }
    ${activeOrderFields}
  }`,
  activeOrder: `query ActiveOrder { ${activeOrderFields} }`,
};

/**
 * A new customer registered and signed in through Vendure's shop API, with one unit of the first product's
 * first variant in her active order: her session's bearer token.
 */
export async function vendureCustomer(shopApiUrl) {
  const emailAddress = `bench-${process.pid}-${Date.now().toString(36)}@example.com`;
  const password = "Tr3no-Blu-Vesuvio";
  const registered = await graphql(
    shopApiUrl,
    `
      mutation ($input: RegisterCustomerInput!) {
        registerCustomerAccount(input: $input) {
          __typename
          ... on ErrorResult {
            message
          }
        }
      }
    `,
    { input: { emailAddress, password, firstName: "Anna", lastName: "Esposito" } },
  );
  if (registered.data.registerCustomerAccount.__typename !== "Success") throw new Error(`Vendure registration: ${JSON.stringify(registered.data)}`);
  const login = await graphql(
    shopApiUrl,
    `
      mutation ($username: String!, $password: String!) {
        login(username: $username, password: $password) {
          __typename
          ... on ErrorResult {
            message
          }
        }
      }
    `,
    { username: emailAddress, password },
  );
  if (login.data.login.__typename !== "CurrentUser") throw new Error(`Vendure login: ${JSON.stringify(login.data)}`);
  const { token } = login;
  const product = await graphql(
    shopApiUrl,
    `
      query ($slug: String!) {
        product(slug: $slug) {
          variants {
            id
          }
        }
      }
    `,
    { slug: productSlug(1) },
    token,
  );
  const added = await graphql(
    shopApiUrl,
    `
      mutation ($id: ID!) {
        addItemToOrder(productVariantId: $id, quantity: 1) {
          __typename
          ... on ErrorResult {
            message
          }
        }
      }
    `,
    { id: product.data.product.variants[0].id },
    token,
  );
  if (added.data.addItemToOrder.__typename !== "Order") throw new Error(`Vendure add to cart: ${JSON.stringify(added.data)}`);
  return token;
}

/**
 * Every GraphQL body of her whole-catalogue loads, in the order they are asked: each collection's listing pages
 * of 24 (as many as its products make), every product by slug; `activeOrder` her order alone.
 */
export async function vendureCatalogue(shopApiUrl, token, productCount) {
  const listings = [];
  for (const { slug } of collections) {
    const { data } = await graphql(shopApiUrl, vendureQueries.category, { slug, skip: 0 }, token);
    const pages = Math.max(1, Math.ceil(data.search.totalItems / 24));
    for (let page = 0; page < pages; page += 1) listings.push({ slug, skip: page * 24 });
  }
  const body = (query, variables) => JSON.stringify({ query, variables });
  return {
    category: listings.map((variables) => body(vendureQueries.category, variables)),
    product: Array.from({ length: productCount }, (_, index) => body(vendureQueries.product, { slug: productSlug(index + 1) })),
    activeOrder: [body(vendureQueries.activeOrder, {})],
  };
}
