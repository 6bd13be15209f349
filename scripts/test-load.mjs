// `npm run test:load`: the load and fault suite (load/load-and-faults.load.ts) and the proxy's own checks
// (load/proxy.load.ts) against the production build, two app processes behind nginx (server/ops/stack.ts)
// on a fresh PostgreSQL database of the test server
// (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test; created and dropped by the suite).
// Builds first when build/ is missing. Prints every part's figures in one table, then
// `N passed, N failed`; `--result-file FILE` also writes the counts as JSON for scripts/test-all.mjs.
// LOAD_PARTS=a,c runs some parts only; LOAD_SECONDS shortens part a (default 60); LOAD_KEEP_LOGS=1 keeps the processes' log.
import "./check-node.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { acceptsConnections } from "../server/ops/health.ts";
import { nginxVersion } from "../server/ops/stack.ts";
import { buildIfMissing, finish, root, run, takeResultFile, vitestCounts } from "./lib/suite.mjs";

const resultFile = takeResultFile(process.argv.slice(2));
/** The suite's own bound: part a is 60 s; the whole must stay far below CI's budget. */
const suiteTimeoutMs = 12 * 60_000;

const startedAt = Date.now();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-load-report-"));
let counts;
try {
  counts = await runSuite();
} finally {
  const rows = readRows(path.join(scratch, "rows.jsonl"));
  if (rows.length > 0) printTable(rows, await nginxVersion());
  fs.rmSync(scratch, { recursive: true, force: true });
}
console.log(`load: ${Math.round((Date.now() - startedAt) / 1000)} s in all`);
finish(counts, resultFile);

async function runSuite() {
  const failed = { passed: 0, failed: 1, skipped: 0 };
  const databaseUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
  const server = new URL(databaseUrl);
  if (!(await acceptsConnections(server.hostname, Number(server.port || 5432)))) {
    console.error(`load: PostgreSQL does not answer at ${server.hostname}:${server.port || 5432}: start it or set TEST_DATABASE_URL.`);
    return failed;
  }
  if ((await buildIfMissing("load")) !== 0) return failed;
  const report = path.join(scratch, "vitest.json");
  const exitCode = await run(
    "load",
    process.execPath,
    [
      path.join(root, "node_modules/vitest/vitest.mjs"),
      "run",
      "--config",
      "load/vitest.config.ts",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
    ],
    { env: { TEST_DATABASE_URL: databaseUrl, LOAD_RESULTS_FILE: path.join(scratch, "rows.jsonl") }, timeoutMs: suiteTimeoutMs },
  );
  return vitestCounts(report, exitCode);
}

function readRows(file) {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** One line per part: what it held, through which proxy. */
function printTable(rows, proxyVersion) {
  const columns = [
    ["part", (row) => row.part],
    ["conns", (row) => row.connections],
    ["requests", (row) => row.requests],
    ["errors", (row) => row.errors + row.hangs],
    ["refused 409", (row) => row.refused],
    ["try-again 429/5xx", (row) => row.unavailable],
    ["orders", (row) => row.ordersPlaced],
    ["oversells", (row) => row.oversells],
    ["lost", (row) => row.lost],
    ["doubled", (row) => row.doubled],
    ["half-written", (row) => row.halfWritten],
    ["recovery s", (row) => (row.recoverySeconds === null ? "-" : row.recoverySeconds)],
    ["took s", (row) => row.seconds],
  ];
  const cells = rows.map((row) => columns.map(([, value]) => String(value(row))));
  const widths = columns.map(([title], index) => Math.max(title.length, ...cells.map((line) => line[index].length)));
  const line = (values) => `| ${values.map((value, index) => value.padEnd(widths[index])).join(" | ")} |`;
  console.log(`\n== load and faults, two app processes behind ${proxyVersion ?? "nginx (not installed)"} ==`);
  console.log(line(columns.map(([title]) => title)));
  console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
  for (const values of cells) console.log(line(values));
  for (const row of rows) if (row.note) console.log(`- ${row.part}: ${row.note}`);
}
