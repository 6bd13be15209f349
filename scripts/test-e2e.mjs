// `npm run test:e2e [-- playwright arguments]`: Playwright journeys (e2e/*.spec.ts) in Debian's Chromium
// against the production build, which e2e/server.ts starts on a free port with a fresh embedded database.
// Builds first when build/ is missing. Ends with `N passed, N failed`; `--result-file FILE` also writes
// the counts as JSON for scripts/test-all.mjs.
import "./check-node.mjs";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
let resultFile;
const resultFlag = args.indexOf("--result-file");
if (resultFlag !== -1) [, resultFile] = args.splice(resultFlag, 2);

const counts = await runJourneys(args);
if (resultFile) fs.writeFileSync(resultFile, JSON.stringify(counts));
console.log(summaryLine(counts));
process.exit(counts.failed > 0 ? 1 : 0);

async function runJourneys(playwrightArgs) {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromium)) {
    console.error(`e2e: no Chromium at ${chromium}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
    return { passed: 0, failed: 1, skipped: 0, flaky: 0 };
  }
  if (!process.env.E2E_BASE_URL && !fs.existsSync(path.join(root, "build"))) {
    console.log("e2e: build/ is missing, building the shop first");
    if ((await run("npm", ["run", "build"])) !== 0) return { passed: 0, failed: 1, skipped: 0, flaky: 0 };
  }

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-e2e-report-"));
  const report = path.join(scratch, "report.json");
  try {
    const exitCode = await run(
      process.execPath,
      [path.join(root, "node_modules/@playwright/test/cli.js"), "test", "--config", "e2e/playwright.config.ts", ...playwrightArgs],
      { E2E_JSON_REPORT: report },
    );
    return countResults(report, exitCode);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Playwright's JSON report: stats.expected = passed, unexpected = failed; errors = failures outside tests. */
function countResults(report, exitCode) {
  let stats = { expected: 0, unexpected: 0, skipped: 0, flaky: 0 };
  let errors = [];
  if (fs.existsSync(report)) {
    const parsed = JSON.parse(fs.readFileSync(report, "utf8"));
    stats = { ...stats, ...parsed.stats };
    errors = parsed.errors ?? [];
  }
  let failed = stats.unexpected;
  if (failed === 0 && (exitCode !== 0 || errors.length > 0)) failed = Math.max(1, errors.length);
  if (stats.flaky > 0) console.log(`e2e: ${stats.flaky} flaky test(s) passed only on retry: see the report above`);
  return { passed: stats.expected + stats.flaky, failed, skipped: stats.skipped, flaky: stats.flaky };
}

function summaryLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`;
}

function run(command, commandArgs, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("error", (error) => {
      console.error(`e2e: could not start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
