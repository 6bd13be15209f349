// What the test scripts share (scripts/test-*.mjs): running a step with its output live, building the
// shop when build/ is missing, counting a Vitest JSON report, and the last line and result file that
// scripts/test-all.mjs reads.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

/** Takes `--result-file FILE` out of `args` (so the rest can be passed on); the file, or undefined. */
export function takeResultFile(args) {
  const flag = args.indexOf("--result-file");
  if (flag === -1) return undefined;
  const [, file] = args.splice(flag, 2);
  return file;
}

/**
 * Runs a command in the repository with its output live, or into `output.lines` when given (steps that run
 * side by side print theirs whole when done); resolves to its exit code (1 when it could not start or was stopped).
 */
export function run(label, command, args, { env = {}, timeoutMs, output } = {}) {
  return new Promise((resolve) => {
    const stdio = output ? ["ignore", "pipe", "pipe"] : "inherit";
    const child = spawn(command, args, { cwd: root, stdio, env: { ...process.env, ...env } });
    if (output) for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => output.lines.push(chunk.toString()));
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            console.error(`${label}: ${command} still running after ${timeoutMs / 1000} s: stopped`);
            child.kill("SIGTERM");
          }, timeoutMs);
    child.on("error", (error) => {
      console.error(`${label}: could not start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Builds the shop when build/ has no server bundle: 0 when it is there, or the build's exit code (1 after 10 minutes). */
export async function buildIfMissing(label) {
  if (fs.existsSync(path.join(root, "build/server/index.js"))) return 0;
  console.log(`${label}: build/ is missing, building the shop first`);
  return run(label, "npm", ["run", "build"], { timeoutMs: 600_000 });
}

export function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * A Vitest JSON report's counts and the names of what failed; a run that broke outside any test (no
 * report, a failed file) counts as failed.
 */
export function vitestCounts(reportFile, exitCode) {
  const json = readJson(reportFile);
  const files = json?.testResults ?? [];
  const counts = {
    passed: json?.numPassedTests ?? 0,
    failed: json?.numFailedTests ?? 0,
    skipped: (json?.numPendingTests ?? 0) + (json?.numTodoTests ?? 0),
    failures: files.flatMap((file) => {
      const tests = (file.assertionResults ?? [])
        .filter((test) => test.status === "failed")
        .map((test) => `${path.relative(root, file.name)}: ${test.fullName}`);
      return tests.length === 0 && file.status === "failed"
        ? [`${path.relative(root, file.name)}: ${file.message || "failed outside its tests"}`]
        : tests;
    }),
  };
  if (counts.failed === 0 && (exitCode !== 0 || !json || json.numFailedTestSuites > 0)) counts.failed = Math.max(1, json?.numFailedTestSuites ?? 0);
  if (counts.failed > 0 && counts.failures.length === 0)
    counts.failures.push(json ? `the run ended with exit code ${exitCode}` : "no report: the run broke before it could write one");
  return counts;
}

/** What failed, one short line each, under a failed step of the summary (the end of a CI log is what is read first). */
export function failureLines(failures = [], shown = 8) {
  const lines = failures.slice(0, shown).map((failure) => `        - ${failure.split("\n")[0].slice(0, 200)}`);
  if (failures.length > shown) lines.push(`        - and ${failures.length - shown} more: see the step's output above`);
  return lines;
}

export function summaryLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`;
}

/** The script's end: the counts into `resultFile` (for scripts/test-all.mjs), the summary line, the exit code. */
export function finish(counts, resultFile) {
  if (resultFile) fs.writeFileSync(resultFile, JSON.stringify(counts));
  console.log(summaryLine(counts));
  process.exit(counts.failed > 0 ? 1 : 0);
}
