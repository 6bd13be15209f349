// `npm run test:budgets`: the Lighthouse score budgets of issue 10 (performance >= 95, accessibility,
// best practices and SEO 100) on home, a listing, a product page, the cart and a gift-list page of the
// production build, one Lighthouse run per page (bench/lighthouse.mjs takes the median of three), in
// Debian's Chromium with Lighthouse's default mobile emulation and simulated throttling. Builds first when
// build/ is missing. One check per page and category; prints a table, then `N passed, N failed`;
// `--result-file FILE` also writes the counts as JSON for scripts/test-all.mjs.
// `--performance-warns`: a performance score below 95 is reported and counted as skipped, not failed. `npm test`
// runs this way because one run's performance score swings 90-97 on the same build of a quiet 2-core machine
// (the framework's JavaScript is over its budget: decisions 0019 and 0026); accessibility, best practices and
// SEO are deterministic and always fail the check. docs/decisions/0026-lighthouse-budgets.md.
import "./check-node.mjs";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromiumFlags, chromiumPath, startShopForBench } from "../bench/lib/shop-server.mjs";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
let resultFile;
const resultFlag = args.indexOf("--result-file");
if (resultFlag !== -1) [, resultFile] = args.splice(resultFlag, 2);
const performanceWarns = args.includes("--performance-warns");

const startedAt = Date.now();
const counts = await checkBudgets();
console.log(`budgets: ${Math.round((Date.now() - startedAt) / 1000)} s in all, load average ${os.loadavg().map((load) => load.toFixed(1)).join(" ")} on ${os.cpus().length} cores`);
if (resultFile) fs.writeFileSync(resultFile, JSON.stringify(counts));
console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped > 0 ? `, ${counts.skipped} skipped` : ""}`);
process.exit(counts.failed > 0 ? 1 : 0);

async function checkBudgets() {
  const failed = { passed: 0, failed: 1, skipped: 0 };
  if (!fs.existsSync(chromiumPath)) {
    console.error(`budgets: no Chromium at ${chromiumPath}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
    return failed;
  }
  if (!process.env.BENCH_BASE_URL && !fs.existsSync(path.join(root, "build/server/index.js"))) {
    console.log("budgets: build/ is missing, building the shop first");
    if ((await run("npm", ["run", "build"])) !== 0) return failed;
  }
  // Imported here: they load Lighthouse, which a missing Chromium or build need not wait for.
  const chromeLauncher = await import("chrome-launcher");
  const { judgeRun, lighthousePages, metricsOf, raiseCpuPriority, runLighthouse } = await import("../bench/lib/lighthouse-pages.mjs");

  const raised = raiseCpuPriority();
  const shop = await startShopForBench();
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: chromiumFlags });
  const counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    const pages = await lighthousePages(shop.baseUrl);
    const rows = [];
    const notes = [];
    for (const page of pages) {
      // A run that could not record (a starved machine) is tried once more.
      const lhr = (await runLighthouse(chrome.port, shop.baseUrl, page)) ?? (await runLighthouse(chrome.port, shop.baseUrl, page));
      if (!lhr) {
        counts.failed += 4;
        rows.push({ page: page.name, path: page.path, result: "Lighthouse could not measure the page: 4 checks failed" });
        continue;
      }
      const verdicts = judgeRun(lhr, page);
      for (const verdict of verdicts) {
        const onlyWarns = !verdict.passed && verdict.category === "performance" && performanceWarns;
        counts[verdict.passed ? "passed" : onlyWarns ? "skipped" : "failed"]++;
        if (onlyWarns) notes.push(`${page.name} performance: ${verdict.score} is below 95: reported, not failed (--performance-warns; decision 0026)`);
      }
      rows.push({
        page: page.name,
        path: page.path,
        ...Object.fromEntries(verdicts.map(({ category, score, passed }) => [category, `${score}${passed ? "" : " FAIL"}`])),
        ...metricsOf(lhr),
      });
      for (const { category, passed, note } of verdicts) {
        const failedWord = category === "performance" && performanceWarns ? "below target: " : "FAILED: ";
        if (note) notes.push(`${page.name} ${category}: ${passed ? "" : failedWord}${note}`);
      }
    }
    console.table(rows);
    for (const note of notes) console.log(note);
    if (!raised) console.log("budgets: measured at normal CPU priority (raising it needs root): other jobs on the machine lower performance scores");
    return counts;
  } catch (error) {
    console.error(`budgets: ${error.stack ?? error}`);
    return { ...counts, failed: counts.failed + 1 };
  } finally {
    chrome.kill();
    await shop.stop();
  }
}

function run(command, commandArgs) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: "inherit" });
    child.on("error", (error) => {
      console.error(`budgets: could not start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
