import { eq } from "drizzle-orm";
import { expect, onTestFinished, test, vi } from "vitest";
import { importJobs } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { getImportJob, interruptedAfterMs, progressWriteMs, startImportJob } from "./import-jobs.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

/** An import the test drives: it reports progress when told and ends when told. */
function controlledImport() {
  const control = {
    progress: (_done: number, _total: number) => {},
    finish: (_report: unknown) => {},
    fail: (_error: Error) => {},
  };
  const run = (progress: (done: number, total: number) => void) =>
    new Promise<unknown>((resolve, reject) => {
      control.progress = progress;
      control.finish = resolve;
      control.fail = reject;
    });
  return { control, run };
}

const hour = 60 * 60_000;

test("an import's progress and report are in the database, for any app process to show; progress is written at most every half second", async () => {
  const db = await openDb();
  const ownerUserId = await createAdminUser(db);
  // The throttle reads the clock: only Date is faked, the database's own timers keep running.
  vi.useFakeTimers({ toFake: ["Date"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  const { control, run } = controlledImport();
  const errors: unknown[] = [];
  const { id } = await startImportJob(db, { ownerUserId, kind: "csv", now: new Date() }, run, (error) => errors.push(error));
  const job = () => getImportJob(db, { id, now: new Date() });
  expect(await job()).toEqual({ id, ownerUserId, kind: "csv", done: 0, total: 0, report: null, state: "running" });

  control.progress(100, 300);
  control.progress(200, 300);
  await expect.poll(async () => (await job())?.done).toBe(100);
  // The second report came within half a second of the first: not written.
  expect(await job()).toMatchObject({ done: 100, total: 300, state: "running" });
  vi.setSystemTime(Date.now() + progressWriteMs);
  control.progress(250, 300);
  await expect.poll(async () => (await job())?.done).toBe(250);

  control.finish({ ok: true, rows: 300, errors: [{ row: 2, column: "price", message: "admin.import.x" }] });
  await expect.poll(async () => (await job())?.state).toBe("finished");
  expect(await job()).toMatchObject({
    done: 250,
    total: 300,
    report: { ok: true, rows: 300, errors: [{ row: 2, column: "price", message: "admin.import.x" }] },
  });
  expect(errors).toEqual([]);
  // Not a job id at all, or no such job: nothing (the page answers 404), never a database error.
  expect(await getImportJob(db, { id: "../etc", now: new Date() })).toBeNull();
  expect(await getImportJob(db, { id: crypto.randomUUID(), now: new Date() })).toBeNull();
});

test("an import that throws is failed; one whose process stopped beating for minutes is interrupted, with its own message", async () => {
  const db = await openDb();
  const ownerUserId = await createAdminUser(db);
  const failing = controlledImport();
  const errors: unknown[] = [];
  const failed = await startImportJob(db, { ownerUserId, kind: "legacy", now: new Date() }, failing.run, (error) => errors.push(error));
  failing.control.fail(new Error("disk full"));
  await expect.poll(async () => (await getImportJob(db, { id: failed.id, now: new Date() }))?.state).toBe("failed");
  expect(errors).toEqual([new Error("disk full")]);

  const stalled = controlledImport();
  const startedAt = new Date();
  const { id } = await startImportJob(db, { ownerUserId, kind: "csv", now: startedAt }, stalled.run, (error) => errors.push(error));
  const stateAt = async (msAfterStart: number) => (await getImportJob(db, { id, now: new Date(startedAt.getTime() + msAfterStart) }))?.state;
  expect(await stateAt(interruptedAfterMs - 1000)).toBe("running");
  expect(await stateAt(interruptedAfterMs + 1000)).toBe("interrupted");
  for (const locale of ["it", "en"] as const)
    expect(getTranslator(locale)("admin.import.interrupted")).toMatch(/(importazione|import).+(stesso file|same file)/);
  stalled.control.finish({ ok: true });
  await expect.poll(() => stateAt(0)).toBe("finished");
});

test("starting an import deletes the jobs finished more than a day ago, and those interrupted as long ago; recent ones stay", async () => {
  const db = await openDb();
  const ownerUserId = await createAdminUser(db);
  const now = new Date();
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const row = (startedAt: Date, finishedAt: Date | null) => ({ ownerUserId, kind: "csv", startedAt, beatAt: finishedAt ?? startedAt, finishedAt });
  const [oldFinished, recentFinished, oldInterrupted, running] = await db
    .insert(importJobs)
    .values([row(ago(26 * hour), ago(25 * hour)), row(ago(2 * hour), ago(hour)), row(ago(30 * hour), null), row(ago(1000), null)])
    .returning({ id: importJobs.id });
  const { control, run } = controlledImport();
  const { id } = await startImportJob(db, { ownerUserId, kind: "csv", now }, run, () => {});
  const left = await db.select({ id: importJobs.id }).from(importJobs);
  expect(left.map((job) => job.id).sort()).toEqual([recentFinished!.id, running!.id, id].sort());
  expect(await getImportJob(db, { id: oldFinished!.id, now })).toBeNull();
  expect(await getImportJob(db, { id: oldInterrupted!.id, now })).toBeNull();
  control.finish({ ok: true });
  await expect
    .poll(async () => (await db.select({ finishedAt: importJobs.finishedAt }).from(importJobs).where(eq(importJobs.id, id)))[0]?.finishedAt)
    .not.toBeNull();
});
