// `npm run bench`: builds when needed, runs every benchmark in bench/ in turn (or those whose file name
// contains one of the words given: `npm run bench -- throughput api`), then prints one table of what
// they measured, each figure beside its same-run baseline and target (bench/lib/results.mjs).
// `--markdown` prints that table as Markdown too, for docs/benchmarks.md.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { summariesSince, summaryMarkdown } from "../bench/lib/results.mjs";
import { buildIfMissing, root } from "./lib/suite.mjs";

// A failed build ends the bench with its exit code, before any benchmark runs.
const buildExitCode = await buildIfMissing("bench");
if (buildExitCode !== 0) process.exit(buildExitCode);
const args = process.argv.slice(2);
const markdown = args.includes("--markdown");
const only = args.filter((arg) => !arg.startsWith("--"));
const benches = fs
  .readdirSync(path.join(root, "bench"))
  .filter((name) => name.endsWith(".mjs") && (only.length === 0 || only.some((word) => name.includes(word))))
  .sort();
const started = new Date();
const failed = [];
for (const name of benches) {
  console.log(`\n== bench/${name}`);
  const run = spawnSync(process.execPath, [path.join("bench", name)], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) failed.push(name);
}
const rows = summariesSince(started);
console.log(`\n== summary (${started.toISOString().slice(0, 10)}; load = the 1-minute load average when the bench wrote its result)`);
console.table(rows);
if (markdown) console.log(`\n${summaryMarkdown(rows)}`);
if (failed.length > 0) console.error(`failed: ${failed.join(", ")}`);
process.exit(failed.length > 0 ? 1 : 0);
