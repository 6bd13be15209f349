// Where the benches leave their figures: bench/results/<name>.json (not committed), each with the load
// average of the machine while it ran and a `summary`: the few rows of the combined table that
// `npm run bench` prints at the end (scripts/bench.mjs), each figure beside the baseline measured in
// the same run and its target where the issues set one.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const resultsFolder = path.resolve(import.meta.dirname, "../results");

/**
 * @typedef {{ measure: string, figure: string, baseline?: string, ratio?: number, target?: string }} SummaryRow
 * `figure` and `baseline` carry their unit ("28 req/s", "p95 31 ms"); `ratio` is figure / baseline.
 */

/** Writes bench/results/<name>.json with its summary rows. */
export function writeResult(name, data, /** @type {SummaryRow[]} */ summary) {
  fs.mkdirSync(resultsFolder, { recursive: true });
  const file = path.join(resultsFolder, `${name}.json`);
  const loadAverage = os.loadavg().map((value) => Math.round(value * 10) / 10);
  fs.writeFileSync(file, JSON.stringify({ measuredAt: new Date().toISOString(), cpus: os.cpus().length, loadAverage, summary, ...data }, null, 2));
  return file;
}

/** The summary rows of every result written since `since` (a Date), in the order the benches ran. */
export function summariesSince(since) {
  if (!fs.existsSync(resultsFolder)) return [];
  return fs
    .readdirSync(resultsFolder)
    .filter((name) => name.endsWith(".json"))
    .map((name) => ({ name: name.replace(/\.json$/, ""), result: JSON.parse(fs.readFileSync(path.join(resultsFolder, name), "utf8")) }))
    .filter(({ result }) => new Date(result.measuredAt) >= since && Array.isArray(result.summary))
    .sort((a, b) => a.result.measuredAt.localeCompare(b.result.measuredAt))
    .flatMap(({ name, result }) =>
      result.summary.map((row) => ({
        bench: name,
        measure: row.measure,
        figure: row.figure,
        baseline: row.baseline ?? "",
        ratio: row.ratio ?? "",
        target: row.target ?? "",
        load: (result.loadAverage ?? [])[0] ?? "",
      })),
    );
}

/** The same rows as a Markdown table, for docs/benchmarks.md. */
export function summaryMarkdown(rows) {
  const columns = ["bench", "measure", "figure", "baseline (same run)", "ratio", "target", "load"];
  const keys = ["bench", "measure", "figure", "baseline", "ratio", "target", "load"];
  const cell = (value) => String(value).replaceAll("|", "\\|");
  return [
    `| ${columns.join(" | ")} |`,
    `|${columns.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${keys.map((key) => cell(row[key])).join(" | ")} |`),
  ].join("\n");
}
