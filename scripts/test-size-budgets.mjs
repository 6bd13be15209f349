// The size budgets in CI (`npm test` runs it after the build): JavaScript (framework and own
// code), messages, CSS and first-screen image bytes of home, listing, product, cart and gift-list page,
// computed from the production build's server-rendered HTML without a browser (bench/lib/page-sizes.mjs).
// One check per page. --result-file <file> writes { passed, failed, skipped } for scripts/test-all.mjs.
import { measureBudgetPages } from "../bench/lib/page-sizes.mjs";
import { startShopForBench } from "../bench/lib/shop-server.mjs";
import { finish, takeResultFile } from "./lib/suite.mjs";

const resultFile = takeResultFile(process.argv.slice(2));

const started = performance.now();
const shop = await startShopForBench();
let counts = { passed: 0, failed: 1, skipped: 0, failures: ["the size budgets could not be measured"] };
try {
  const rows = await measureBudgetPages(shop.baseUrl);
  console.table(rows.map((row) => row.table));
  for (const line of rows.flatMap((row) => row.over)) console.error(`FAILED: over budget: ${line}`);
  const failed = rows.filter((row) => row.over.length > 0).length;
  counts = { passed: rows.length - failed, failed, skipped: 0, failures: rows.flatMap((row) => row.over) };
  console.log(`size budgets: ${counts.passed} pages within, ${failed} over (${Math.round((performance.now() - started) / 1000)} s)`);
} catch (error) {
  console.error("FAILED: the size budgets could not be measured:", error);
} finally {
  await shop.stop();
}
finish(counts, resultFile);
