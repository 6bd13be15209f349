// What the five budgeted pages (home, listing, product, cart, gift list) cost on first load, in KB:
// JavaScript split into framework and the shop's own code, the messages of the page's loader data, CSS, and
// the first screen's pictures on a phone, each against its budget (bench/lib/page-sizes.mjs; decision 0019).
// "figure / budget" in each cell. Exits non-zero when a page is over a budget; scripts/test-size-budgets.mjs
// runs the same check in CI. Prints a table and writes bench/results/js-size.json.
import { measureBudgetPages } from "./lib/page-sizes.mjs";
import { writeResult } from "./lib/results.mjs";
import { startShopForBench } from "./lib/shop-server.mjs";

const shop = await startShopForBench();
try {
  const rows = await measureBudgetPages(shop.baseUrl);
  console.log("KB, gzip (images as sent): figure / budget");
  console.table(rows.map((row) => row.table));
  const over = rows.flatMap((row) => row.over);
  for (const line of over) console.error(`over budget: ${line}`);
  const summary = rows.map(({ page, sizes }) => ({
    measure: `${page}: first load, KB gzip`,
    figure: `JS ${sizes.totalJs} (framework ${sizes.frameworkJs}, own ${sizes.ownJs}), CSS ${sizes.css}, images ${sizes.images}`,
    target: page === "product" ? "JS <= 120 (the product page's own target); budgets of decision 0019" : "budgets of decision 0019",
  }));
  const file = writeResult("js-size", { rows: rows.map(({ page, path, sizes, over }) => ({ page, path, sizes, over })) }, summary);
  console.log(`written to ${file}`);
  if (over.length > 0) process.exitCode = 1;
} finally {
  await shop.stop();
}
