/**
 * Long imports run after the request that started them; the page polls (a no-JS page that refreshes
 * itself) for the progress and then the report. Kept in the database (import_jobs), so behind
 * nginx any app process can show a job another one runs (decision 0017, docs/deploy.md).
 */
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "#server/db/client.ts";
import { importJobs } from "#server/db/schema.ts";

export type ImportJobKind = "csv" | "legacy";

/** Running, finished with its report, failed, or interrupted: its process stopped before it finished. */
export type ImportJobState = "running" | "finished" | "failed" | "interrupted";

export type ImportJob<Report> = {
  id: string;
  ownerUserId: string;
  kind: ImportJobKind;
  done: number;
  total: number;
  report: Report | null;
  state: ImportJobState;
};

/** Progress reaches the database at most this often: a batch of 100 rows takes less, the page refreshes every 2 s. */
export const progressWriteMs = 500;
/** While it runs, the job's process says so this often, even when a step reports no progress. */
export const beatMs = 60_000;
/** No beat for this long and not finished: the process that ran it died (a restart, a crash, a kill). */
export const interruptedAfterMs = 5 * 60_000;
/** Finished jobs are kept a day, for the page to show their report. */
const keepFinishedMs = 24 * 60 * 60_000;

const JobId = z.uuid();

/**
 * Records a new job and runs it after the request: `run` reports progress (throttled to the database),
 * its report or its failure is written when it ends. Finished jobs older than a day go first.
 */
export async function startImportJob<Report>(
  db: Db,
  args: { ownerUserId: string; kind: ImportJobKind; now: Date },
  run: (progress: (done: number, total: number) => void) => Promise<Report>,
  onError: (error: unknown) => void,
): Promise<{ id: string }> {
  const keptSince = new Date(args.now.getTime() - keepFinishedMs);
  // A job interrupted a day ago never finishes: it goes with the finished ones.
  await db.delete(importJobs).where(or(lt(importJobs.finishedAt, keptSince), and(isNull(importJobs.finishedAt), lt(importJobs.beatAt, keptSince))));
  const [job] = await db
    .insert(importJobs)
    .values({ ownerUserId: args.ownerUserId, kind: args.kind, startedAt: args.now, beatAt: args.now })
    .returning({ id: importJobs.id });
  const id = job!.id;
  const progress = throttledProgress(db, id, onError);
  const beat = setInterval(() => progress.write(() => ({ beatAt: new Date() })), beatMs);
  beat.unref();
  // The job runs in the background: the page polls its row, and a failure is written there and passed to onError.
  void run(progress.report)
    .then(
      (report) => ({ report: report as unknown, failed: false }),
      (error: unknown) => {
        onError(error);
        return { report: null, failed: true };
      },
    )
    .then((outcome) => {
      clearInterval(beat);
      const finishedAt = new Date();
      progress.write(() => ({ ...outcome, beatAt: finishedAt, finishedAt }));
    });
  return { id };
}

/**
 * Writes to the job's row one at a time, in order: progress at most every `progressWriteMs` (the
 * latest numbers win, none is written after the job ended), then the beats and the end. A write that
 * fails is passed to `onError`; the next one still goes.
 */
function throttledProgress(db: Db, id: string, onError: (error: unknown) => void) {
  let queue = Promise.resolve();
  let lastProgressAt = 0;
  const write = (values: () => Partial<typeof importJobs.$inferInsert>) => {
    queue = queue
      .then(() =>
        db
          .update(importJobs)
          .set(values())
          .where(and(eq(importJobs.id, id), isNull(importJobs.finishedAt))),
      )
      .then(() => undefined, onError);
  };
  const report = (done: number, total: number) => {
    const now = Date.now();
    if (now - lastProgressAt < progressWriteMs) return;
    lastProgressAt = now;
    write(() => ({ done, total, beatAt: new Date() }));
  };
  return { write, report };
}

/** The job with its state at `now`, or null: unknown id, or not a job id at all. */
export async function getImportJob(db: Db, args: { id: string; now: Date }): Promise<ImportJob<unknown> | null> {
  const id = JobId.safeParse(args.id);
  if (!id.success) return null;
  const [row] = await db.select().from(importJobs).where(eq(importJobs.id, id.data));
  if (!row) return null;
  return {
    id: row.id,
    ownerUserId: row.ownerUserId,
    kind: row.kind === "legacy" ? "legacy" : "csv",
    done: row.done,
    total: row.total,
    report: row.report ?? null,
    state: stateOf(row, args.now),
  };
}

function stateOf(row: typeof importJobs.$inferSelect, now: Date): ImportJobState {
  if (row.failed) return "failed";
  if (row.finishedAt) return "finished";
  return now.getTime() - row.beatAt.getTime() > interruptedAfterMs ? "interrupted" : "running";
}
