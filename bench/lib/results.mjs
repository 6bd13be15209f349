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

/** The 1-minute load average a result recorded: a bench's own "1.2 3.4 5.6" replaces writeResult's list. */
function oneMinuteLoad(result) {
  const load = result.loadAverage ?? "";
  return (typeof load === "string" ? load.split(" ")[0] : load[0]) ?? "";
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
        load: oneMinuteLoad(result),
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

/** A bench's result as last written, or null. */
function readResult(name) {
  const file = path.join(resultsFolder, `${name}.json`);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null;
}

const medianOf = (values) => {
  const known = values.filter((value) => typeof value === "number" && Number.isFinite(value)).toSorted((a, b) => a - b);
  return known.length > 0 ? known[Math.floor(known.length / 2)] : null;
};

/**
 * The build table (decision 0096): this build beside the baseline measured in the same run, alternated, from
 * the results of visitor-pages, signed-in, order-flow and memory written since `since`. A figure a bench did
 * not give (not run, or another shape of result) is left empty.
 */
export function buildTable(since) {
  const fresh = (name) => {
    const result = readResult(name);
    return result && new Date(result.measuredAt) >= since ? result : null;
  };
  const [visitor, signedIn, orderFlow, memory] = ["visitor-pages", "signed-in", "order-flow", "memory"].map(fresh);
  const pageFigure = (result, page, build, key) => result?.rows?.find((row) => row.page === page && row.build === build)?.[key] ?? null;
  const rows = [];
  const add = (measure, mine, base, unit, lowerIsBetter = false) => {
    const ratio = typeof mine === "number" && typeof base === "number" && base !== 0 ? Math.round((mine / base) * 100) / 100 : "";
    rows.push({
      measure,
      "this build": mine ?? "",
      "previous build": base ?? "",
      unit,
      "this / previous": ratio,
      better: lowerIsBetter ? "lower" : "higher",
    });
  };
  for (const page of ["category", "product"]) {
    for (const [who, result] of [
      ["visitor", visitor],
      ["signed-in", signedIn],
    ]) {
      add(
        `${who} ${page} page`,
        pageFigure(result, page, "this build", "req/s (median)"),
        pageFigure(result, page, "baseline", "req/s (median)"),
        "req/s",
      );
      add(
        `${who} ${page} page, CPU per answer`,
        pageFigure(result, page, "this build", "CPU ms/req (median)"),
        pageFigure(result, page, "baseline", "CPU ms/req (median)"),
        "ms",
        true,
      );
    }
    const ratio = (build) => {
      const [mine, base] = [pageFigure(signedIn, page, build, "req/s (median)"), pageFigure(visitor, page, build, "req/s (median)")];
      return typeof mine === "number" && typeof base === "number" && base > 0 ? Math.round((mine / base) * 1000) / 1000 : null;
    };
    add(`signed-in / visitor, ${page} page`, ratio("this build"), ratio("baseline"), "req/s ratio");
  }
  add("hit ratio, one order a second", orderFlow?.hitRatios?.["this build"] ?? null, orderFlow?.hitRatios?.baseline ?? null, "given / asked");
  for (const [setup, label] of [
    ["postgres", "PostgreSQL"],
    ["pglite", "embedded database"],
  ]) {
    const runsOf = (variant) => (memory?.runs ?? []).filter((run) => run.setup === setup && run.variant === variant);
    const figure = (variant, moment) => medianOf(runsOf(variant).map((run) => run[moment]?.rssMb));
    add(`RSS idle, ${label}`, figure("this build", "idle"), figure("baseline", "idle"), "MB", true);
    add(`RSS idle after the load, ${label}`, figure("this build", "settled"), figure("baseline", "settled"), "MB", true);
    add(`RSS peak under the mixed load, ${label}`, figure("this build", "peak"), figure("baseline", "peak"), "MB", true);
  }
  const loads = [visitor, signedIn, orderFlow, memory].flatMap((result) => (result ? [oneMinuteLoad(result)] : []));
  return { rows, loads };
}

/** The build table as Markdown, for docs/benchmarks.md. */
export function buildTableMarkdown(rows) {
  const keys = ["measure", "this build", "previous build", "unit", "this / previous", "better"];
  return [
    `| ${keys.join(" | ")} |`,
    `|${keys.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${keys.map((key) => String(row[key])).join(" | ")} |`),
  ].join("\n");
}
