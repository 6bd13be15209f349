/**
 * `npm audit --omit=dev --audit-level=high`: no high or critical advisory in the production
 * dependencies. It asks the registry's audit endpoint; where that cannot be reached (offline, or a
 * registry mirror without it) the check is skipped with a line saying so, never passed in silence.
 */
import { execFile } from "node:child_process";
import { expect, test } from "vitest";
import { z } from "zod";

const AuditReport = z.object({
  metadata: z.object({ vulnerabilities: z.object({ high: z.number(), critical: z.number() }).loose() }),
  vulnerabilities: z.record(z.string(), z.object({ severity: z.string(), via: z.array(z.unknown()) }).loose()),
});

function runAudit(): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile("npm", ["audit", "--omit=dev", "--audit-level=high", "--json"], { timeout: 60_000, maxBuffer: 20 * 1024 * 1024 }, (error, stdout) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout });
    });
  });
}

test("production dependencies have no high or critical advisory (npm audit)", { timeout: 90_000 }, async (context) => {
  const { stdout } = await runAudit();
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    parsed = undefined;
  }
  const report = AuditReport.safeParse(parsed);
  if (!report.success) {
    // npm's own error shape: { message, statusCode?, error }: the audit endpoint did not answer.
    const why = (parsed as { message?: string } | undefined)?.message ?? "no report";
    console.log(`npm audit: SKIPPED, the registry's audit endpoint is unreachable (${why})`);
    context.skip(`npm audit endpoint unreachable: ${why}`);
    return;
  }
  const serious = Object.entries(report.data.vulnerabilities)
    .filter(([, advisory]) => advisory.severity === "high" || advisory.severity === "critical")
    .map(([name, advisory]) => `${name} (${advisory.severity})`);
  expect(serious).toEqual([]);
});
