// `npm run test:e2e [-- playwright arguments]`: Playwright journeys (e2e/*.spec.ts) in Debian's Chromium
// against the production build, which e2e/server.ts starts on a free port with a fresh embedded database.
// Builds first when build/ is missing. Ends with `N passed, N failed`; `--result-file FILE` also writes
// the counts as JSON for scripts/test-all.mjs.
import "./check-node.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { journeyBrowserPath } from "../e2e/browser.ts";
import { buildIfMissing, finish, root, run, takeResultFile } from "./lib/suite.mjs";

const args = process.argv.slice(2);
const resultFile = takeResultFile(args);
finish(await runJourneys(args), resultFile);

async function runJourneys(playwrightArgs) {
  if (!fs.existsSync(journeyBrowserPath)) {
    console.error(
      `e2e: no Chromium at ${journeyBrowserPath}: install it with \`apt-get install -y chromium-headless-shell\` (or set CHROMIUM_PATH).`,
    );
    return { passed: 0, failed: 1, skipped: 0, flaky: 0 };
  }
  if (!process.env.E2E_BASE_URL && (await buildIfMissing("e2e")) !== 0) return { passed: 0, failed: 1, skipped: 0, flaky: 0 };

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-e2e-report-"));
  const report = path.join(scratch, "report.json");
  try {
    const exitCode = await run(
      "e2e",
      process.execPath,
      [path.join(root, "node_modules/@playwright/test/cli.js"), "test", "--config", "e2e/playwright.config.ts", ...playwrightArgs],
      { env: { E2E_JSON_REPORT: report } },
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
  let suites = [];
  if (fs.existsSync(report)) {
    const parsed = JSON.parse(fs.readFileSync(report, "utf8"));
    stats = { ...stats, ...parsed.stats };
    errors = parsed.errors ?? [];
    suites = parsed.suites ?? [];
  }
  let failed = stats.unexpected;
  if (failed === 0 && (exitCode !== 0 || errors.length > 0)) failed = Math.max(1, errors.length);
  if (stats.flaky > 0) console.log(`e2e: ${stats.flaky} flaky test(s) passed only on retry: see the report above`);
  const failures = [...unexpectedTests(suites), ...errors.map((error) => error.message ?? String(error))];
  if (failed > 0 && failures.length === 0) failures.push(`Playwright ended with exit code ${exitCode}`);
  return { passed: stats.expected + stats.flaky, failed, skipped: stats.skipped, flaky: stats.flaky, failures };
}

/** "file: title [project]" of every test whose outcome was unexpected, from the report's nested suites. */
function unexpectedTests(suites, titles = []) {
  return suites.flatMap((suite) => {
    // A file's own suite is titled with the file name, which each line already starts with.
    const groups = suite.title && !suite.title.endsWith(".ts") ? [...titles, suite.title] : titles;
    const own = (suite.specs ?? []).flatMap((spec) =>
      (spec.tests ?? [])
        .filter((test) => test.status === "unexpected")
        .map((test) => `${spec.file}: ${[...groups, spec.title].join(" > ")} [${test.projectName}]`),
    );
    return [...own, ...unexpectedTests(suite.suites ?? [], groups)];
  });
}
