// `npm run test:budgets`: the Lighthouse budgets the CI gate keeps (accessibility, best practices and SEO
// at 100) on home, a listing, a product page, the cart and a gift-list page of the production build, in
// Debian's Chromium with Lighthouse's default mobile emulation. These categories are decided by the page's
// markup, not by the machine's speed, so one run per page is the verdict (a run that fails to record is made
// again once). Performance is not judged here: it is a timing on a shared machine and lives in
// `npm run bench` (bench/lighthouse.mjs and the throttled real-Chromium figures), decision 0049.
// Builds first when build/ is missing. One check per page and category; prints a table, then
// `N passed, N failed`; `--result-file FILE` also writes the counts as JSON for scripts/test-all.mjs, which
// prints a failed check's page, category and failing audits under its summary.
import "./check-node.mjs";
import fs from "node:fs";
import os from "node:os";
import { startShopForBench } from "../bench/lib/shop-server.mjs";
import { chromiumFlags, chromiumPath } from "./lib/chromium.ts";
import { buildIfMissing, finish, takeResultFile } from "./lib/suite.mjs";

const resultFile = takeResultFile(process.argv.slice(2));

const startedAt = Date.now();
const counts = await checkBudgets();
console.log(
  `budgets: ${Math.round((Date.now() - startedAt) / 1000)} s in all, load average ${os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(" ")} on ${os.cpus().length} cores`,
);
finish(counts, resultFile);

async function checkBudgets() {
  const failed = { passed: 0, failed: 1, skipped: 0 };
  if (!fs.existsSync(chromiumPath)) {
    console.error(`budgets: no Chromium at ${chromiumPath}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
    return failed;
  }
  if (!process.env.BENCH_BASE_URL && (await buildIfMissing("budgets")) !== 0) return failed;
  // Imported here: they load Lighthouse, which a missing Chromium or build need not wait for.
  const chromeLauncher = await import("chrome-launcher");
  const { gateCategories, judgeRun, lighthousePages, runLighthouse } = await import("../bench/lib/lighthouse-pages.mjs");

  const shop = await startShopForBench();
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: chromiumFlags });
  const counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  try {
    const rows = [];
    const notes = [];
    for (const page of await lighthousePages(shop.baseUrl)) {
      // A run can fail to record on a starved machine (e.g. NO_NAVSTART): once more, then it counts as failed.
      const lhr =
        (await runLighthouse(chrome.port, shop.baseUrl, page, gateCategories)) ??
        (await runLighthouse(chrome.port, shop.baseUrl, page, gateCategories));
      if (!lhr) {
        counts.failed += gateCategories.length;
        counts.failures.push(`${page.name}: Lighthouse could not measure the page`);
        rows.push({ page: page.name, path: page.path, result: `Lighthouse could not measure the page: ${gateCategories.length} checks failed` });
        continue;
      }
      const verdicts = judgeRun(lhr, page, gateCategories);
      for (const { category, score, passed, note } of verdicts) {
        counts[passed ? "passed" : "failed"]++;
        if (!passed) counts.failures.push(`${page.name} ${category} ${score}: ${note}`);
        if (note) notes.push(`${page.name} ${category}: ${passed ? "" : "FAILED: "}${note}`);
      }
      rows.push({
        page: page.name,
        path: page.path,
        ...Object.fromEntries(verdicts.map(({ category, score, passed }) => [category, `${score}${passed ? "" : " FAIL"}`])),
      });
    }
    console.table(rows);
    for (const note of notes) console.log(note);
    return counts;
  } catch (error) {
    console.error(`budgets: ${error.stack ?? error}`);
    return { ...counts, failed: counts.failed + 1, failures: [...counts.failures, `budgets: ${error.message ?? error}`] };
  } finally {
    chrome.kill();
    await shop.stop();
  }
}
