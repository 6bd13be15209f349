// Vendure 3.7.3 for bench/vendure-side-by-side.mjs, run in its own process (started by lib/vendure.mjs, never
// imported): its packages are the ones installed from npm into VENDURE_DIR, none are in this repository.
//
//   node bench/lib/vendure-app.mjs populate <database> <products>   schema, 7 collections, the products
//   node bench/lib/vendure-app.mjs serve <database> <port>          the server (shop and admin API)
//
// The configuration is what a new Vendure project runs (the default search and SQL job queue plugins) on
// PostgreSQL, without the asset server, e-mail and admin UI, which the shop API's answers measured do not use.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { collections, productsCsv } from "./vendure-catalogue.mjs";

const vendureDir = process.env.VENDURE_DIR;
if (!vendureDir) throw new Error("VENDURE_DIR is not set");
const require = createRequire(path.join(path.resolve(vendureDir), "package.json"));
const vendure = require("@vendure/core");
const { populate } = require("@vendure/core/cli");

const [mode, database, argument] = process.argv.slice(2);
const databaseUrl = new URL(process.env.VENDURE_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");

function configFor({ port = 3000, synchronize = false }) {
  return {
    apiOptions: {
      hostname: "127.0.0.1",
      port,
      shopApiPath: "shop-api",
      adminApiPath: "admin-api",
      shopApiPlayground: false,
      adminApiPlayground: false,
      shopApiDebug: false,
      adminApiDebug: false,
    },
    authOptions: {
      // A storefront's server sends the customer's token as a bearer token.
      tokenMethod: ["bearer", "cookie"],
      requireVerification: false,
      // Not the default password: Vendure refuses to start with it when NODE_ENV is production.
      superadminCredentials: { identifier: "superadmin", password: "vendure-bench-superadmin" },
      cookieOptions: { secret: "vendure-bench-cookie-secret" },
    },
    dbConnectionOptions: {
      type: "postgres",
      host: databaseUrl.hostname,
      port: Number(databaseUrl.port || 5432),
      username: decodeURIComponent(databaseUrl.username || "postgres"),
      password: decodeURIComponent(databaseUrl.password),
      database,
      synchronize,
      logging: false,
    },
    paymentOptions: { paymentMethodHandlers: [vendure.dummyPaymentHandler] },
    logger: new vendure.DefaultLogger({ level: vendure.LogLevel.Warn }),
    plugins: [vendure.DefaultJobQueuePlugin.init({}), vendure.DefaultSearchPlugin.init({ bufferUpdates: false, indexStockStatus: true })],
  };
}

/** Resolves once the job queue (collection filters, search index) has no job left to run. */
async function jobsDone(app) {
  const connection = app.get(vendure.TransactionalConnection).rawConnection;
  for (;;) {
    const [{ left }] = await connection.query("select count(*)::int as left from job_record where state in ('PENDING', 'RUNNING', 'RETRYING')");
    if (left === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

if (mode === "populate") {
  const products = Number(argument);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "vendure-populate-"));
  const csvFile = path.join(folder, "products.csv");
  fs.writeFileSync(csvFile, productsCsv(products));
  const initialData = {
    defaultLanguage: "en",
    defaultZone: "Europe",
    countries: [{ name: "Italia", code: "IT", zone: "Europe" }],
    taxRates: [{ name: "standard", percentage: 22 }],
    shippingMethods: [{ name: "Spedizione standard", price: 590 }],
    paymentMethods: [
      { name: "Pagamento di prova", handler: { code: vendure.dummyPaymentHandler.code, arguments: [{ name: "automaticSettle", value: "true" }] } },
    ],
    collections: collections.map(({ name, slug }) => ({
      name,
      slug,
      filters: [{ code: "facet-value-filter", args: { facetValueNames: [`categoria:${name}`], containsAny: false } }],
    })),
  };
  // The job queue runs in this process, as a worker would: collections' filters and the search index.
  const app = await populate(
    async () => {
      const started = await vendure.bootstrap(configFor({ port: Number(process.env.VENDURE_POPULATE_PORT ?? 3999), synchronize: true }));
      await started.get(vendure.JobQueueService).start();
      return started;
    },
    initialData,
    csvFile,
  );
  await jobsDone(app);
  // Rebuilt once every collection's products are known, so each search row has its collections.
  const ctx = await app.get(vendure.RequestContextService).create({ apiType: "admin" });
  await app.get(vendure.SearchService).reindex(ctx);
  await jobsDone(app);
  await app.close();
  fs.rmSync(folder, { recursive: true, force: true });
  process.exit(0);
} else if (mode === "serve") {
  await vendure.bootstrap(configFor({ port: Number(argument) }));
} else {
  throw new Error("usage: vendure-app.mjs populate <database> <products> | serve <database> <port>");
}
