// `npm run bench`: builds when needed, runs every benchmark in bench/ in turn (or those whose file name
// contains one of the words given: `npm run bench -- throughput api`; the word `table` names the four of the
// build table: visitor-pages, signed-in, order-flow, memory), then prints one table of what they measured, each
// figure beside its same-run baseline and target (bench/lib/results.mjs), and the build table: this build
// beside the previous one, started side by side and alternated in the same run (decision 0096).
// The previous build is BENCH_BASELINE_ROOT (a checkout with its build) or BENCH_BASELINE_REF built once
// (scripts/lib/baseline.mjs; default: where this branch left main); `--no-baseline` runs this build alone.
// `--quick` shortens every load (`table`: 24 minutes on 2 cores at load 20-30, the first build of the baseline aside); `--markdown` prints both
// tables as Markdown too, for docs/benchmarks.md.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildTable, buildTableMarkdown, summariesSince, summaryMarkdown } from "../bench/lib/results.mjs";
import { prepareBaseline } from "./lib/baseline.mjs";
import { buildIfMissing, root } from "./lib/suite.mjs";

// A failed build ends the bench with its exit code, before any benchmark runs.
const buildExitCode = await buildIfMissing("bench");
if (buildExitCode !== 0) process.exit(buildExitCode);
const args = process.argv.slice(2);
const markdown = args.includes("--markdown");
const words = args.filter((arg) => !arg.startsWith("--"));
const tableBenches = ["visitor-pages", "signed-in", "order-flow", "memory"];
const only = words.flatMap((word) => (word === "table" ? tableBenches : [word]));
const benches = fs
  .readdirSync(path.join(root, "bench"))
  .filter((name) => name.endsWith(".mjs") && (only.length === 0 || only.some((word) => name.includes(word))))
  .sort();

const env = { ...process.env };
// The customer of the build table browses as her browser does: every listing and product page in turn, with the
// `js` cookie her browser's scripts set after its first page (decisions 0094, 0095), and her part (`/personal`).
env.BENCH_SIGNED_IN_CATALOGUE ??= "1";
env.BENCH_SIGNED_IN_JS ??= "1";
if (!args.includes("--no-baseline") && !env.BENCH_BASELINE_ROOT) {
  const baseline = prepareBaseline();
  env.BENCH_BASELINE_ROOT = baseline.folder;
  console.log(`previous build: ${baseline.commit.slice(0, 12)} (${path.relative(root, baseline.folder)})`);
}
// Shorter loads and fewer rounds, each only when not set already.
const quick = {
  BENCH_DURATION_S: "5",
  BENCH_VISITOR_ROUNDS: "2",
  BENCH_SIGNED_IN_ROUNDS: "2",
  BENCH_SIGNED_IN_BLOCKS: "6",
  BENCH_SIGNED_IN_PAGES: "category,product",
  BENCH_ORDER_FLOW_DURATION_S: "10",
  BENCH_MEMORY_LOAD_S: "20",
  BENCH_MEMORY_IDLE_S: "10",
};
if (args.includes("--quick")) for (const [name, value] of Object.entries(quick)) env[name] ??= value;

const started = new Date();
const failed = [];
for (const name of benches) {
  console.log(`\n== bench/${name}`);
  const run = spawnSync(process.execPath, [path.join("bench", name)], { cwd: root, stdio: "inherit", env });
  if (run.status !== 0) failed.push(name);
}
const rows = summariesSince(started);
console.log(`\n== summary (${started.toISOString().slice(0, 10)}; load = the 1-minute load average when the bench wrote its result)`);
console.table(rows);
const table = buildTable(started);
if (table.rows.some((row) => row["this build"] !== "")) {
  console.log(`\n== this build beside the previous one, alternated in the same run (load ${table.loads.join(", ")})`);
  console.table(table.rows);
}
if (markdown) console.log(`\n${summaryMarkdown(rows)}\n\n${buildTableMarkdown(table.rows)}`);
if (failed.length > 0) console.error(`failed: ${failed.join(", ")}`);
process.exit(failed.length > 0 ? 1 : 0);
