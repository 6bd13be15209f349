/**
 * Long imports run after the request that started them; the page polls (a no-JS page that
 * refreshes itself) for the progress and then the report. Kept in this process's memory: an
 * import is tied to the app process that runs it (decision 0017); finished jobs are kept one hour.
 */
import crypto from "node:crypto";

export type ImportJob<Report> = {
  id: string;
  ownerUserId: string;
  kind: "csv" | "legacy";
  startedAt: number;
  done: number;
  total: number;
  report: Report | null;
  failed: boolean;
};

const jobs = new Map<string, ImportJob<unknown>>();
const keepMs = 60 * 60 * 1000;

export function startImportJob<Report>(
  args: { ownerUserId: string; kind: ImportJob<Report>["kind"] },
  run: (progress: (done: number, total: number) => void) => Promise<Report>,
  onError: (error: unknown) => void,
): ImportJob<Report> {
  const now = Date.now();
  for (const [id, job] of jobs) if (now - job.startedAt > keepMs) jobs.delete(id);
  const job: ImportJob<Report> = { id: crypto.randomUUID(), ownerUserId: args.ownerUserId, kind: args.kind, startedAt: now, done: 0, total: 0, report: null, failed: false };
  jobs.set(job.id, job as ImportJob<unknown>);
  void run((done, total) => {
    job.done = done;
    job.total = total;
  }).then(
    (report) => {
      job.report = report;
    },
    (error: unknown) => {
      job.failed = true;
      onError(error);
    },
  );
  return job;
}

export function getImportJob(id: string): ImportJob<unknown> | null {
  return jobs.get(id) ?? null;
}
