// Lighthouse 13 on the budgeted pages (home, a listing, a product page, the cart with one item, a
// gift-list page: bench/lib/lighthouse-pages.mjs, shared with the CI check scripts/test-budgets.mjs) of
// the production build, in Debian's Chromium with the default mobile emulation and simulated throttling,
// all four categories. Each page runs BENCH_LIGHTHOUSE_RUNS times (default 3) and the median performance
// run is kept. Prints a table and writes bench/results/lighthouse.json (with the main opportunities, to
// see why a score is low).
import * as chromeLauncher from "chrome-launcher";
import {
  failingAudits,
  judgeRun,
  lighthouseBudgets,
  lighthousePages,
  metricsOf,
  raiseCpuPriority,
  runLighthouseMedian,
} from "./lib/lighthouse-pages.mjs";
import { writeResult } from "./lib/results.mjs";
import { chromiumFlags, chromiumPath } from "../scripts/lib/chromium.ts";
import { startShopForBench } from "./lib/shop-server.mjs";

const runs = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));
const metricIds = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];

const raisedPriority = raiseCpuPriority();
const shop = await startShopForBench();
const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: chromiumFlags });
try {
  const pages = await lighthousePages(shop.baseUrl);
  const rows = [];
  const details = {};
  for (const page of pages) {
    const measured = await runLighthouseMedian(chrome.port, shop.baseUrl, page, { runs, stopWhenDecided: false });
    if (!measured) throw new Error(`Lighthouse could not measure ${page.path}`);
    const { lhr, scores } = measured;
    const verdicts = judgeRun(lhr, page);
    rows.push({
      page: page.name,
      path: page.path,
      ...Object.fromEntries(verdicts.map(({ category, score }) => [category, score])),
      "perf runs": scores.join(" "),
      ...metricsOf(lhr),
      "on target": verdicts.every((verdict) => verdict.passed) ? "yes" : "NO",
    });
    details[page.name] = {
      path: page.path,
      verdicts,
      benchmarkIndex: lhr.environment.benchmarkIndex,
      metrics: Object.fromEntries(metricIds.map((id) => [id, lhr.audits[id]?.numericValue])),
      // What Lighthouse says would help, largest estimated saving first.
      opportunities: Object.values(lhr.audits)
        .filter(
          (audit) => audit.score !== null && audit.score < 0.9 && audit.details && ["opportunity", "table", "list"].includes(audit.details.type),
        )
        .map((audit) => ({ id: audit.id, title: audit.title, displayValue: audit.displayValue ?? "", score: audit.score }))
        .slice(0, 12),
      failures: Object.fromEntries(["accessibility", "best-practices", "seo"].map((category) => [category, failingAudits(lhr, category)])),
    };
  }
  console.table(rows);
  for (const [name, detail] of Object.entries(details)) {
    for (const verdict of detail.verdicts) if (verdict.note) console.log(`${name} ${verdict.category}: ${verdict.note}`);
    if (detail.opportunities.length)
      console.log(`${name}: to look at:`, detail.opportunities.map((audit) => `${audit.id} ${audit.displayValue}`.trim()).join("; "));
  }
  if (!raisedPriority) console.log("measured at normal CPU priority (raising it needs root): other jobs on the machine lower performance scores");
  const summary = rows.map((row) => ({
    measure: `Lighthouse mobile, ${row.page} ${row.path}`,
    figure: `performance ${row.performance} (runs ${row["perf runs"]}), accessibility ${row.accessibility}, best practices ${row["best-practices"]}, SEO ${row.seo}`,
    target: "performance >= 95, others 100",
  }));
  const file = writeResult("lighthouse", { runs, budgets: lighthouseBudgets, raisedPriority, rows, details }, summary);
  console.log(`written to ${file}`);
  if (rows.some((row) => row["on target"] !== "yes")) process.exitCode = 1;
} finally {
  chrome.kill();
  await shop.stop();
}
