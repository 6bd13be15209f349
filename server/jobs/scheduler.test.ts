import { afterEach, expect, test, vi } from "vitest";
import { startJob, stopAllJobs, type JobLogger } from "./scheduler";

afterEach(() => stopAllJobs());

function quietLog() {
  return { error: vi.fn<JobLogger["error"]>() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("runs at start, then again every interval", async () => {
  let runs = 0;
  startJob({ name: "tick", everyMs: 20, log: quietLog(), run: async () => void runs++ });
  await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), { timeout: 2000 });
});

test("runAtStart: false waits one interval for the first run", async () => {
  let runs = 0;
  startJob({ name: "later", everyMs: 60, runAtStart: false, log: quietLog(), run: async () => void runs++ });
  await sleep(20);
  expect(runs).toBe(0);
  await vi.waitFor(() => expect(runs).toBe(1), { timeout: 2000 });
});

test("runs of one job never overlap, even when a run is slower than the interval", async () => {
  let active = 0;
  let maxActive = 0;
  let runs = 0;
  const job = startJob({
    name: "slow",
    everyMs: 5,
    log: quietLog(),
    run: async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(30);
      active--;
      runs++;
    },
  });
  // Asking for a run while one is going returns that run instead of starting another.
  const [a, b] = [job.runNow(), job.runNow()];
  await Promise.all([a, b]);
  await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), { timeout: 2000 });
  expect(maxActive).toBe(1);
});

test("a failing run is logged, not thrown, and the job keeps running", async () => {
  const log = quietLog();
  let runs = 0;
  startJob({
    name: "flaky",
    everyMs: 10,
    log,
    run: async () => {
      runs++;
      if (runs === 1) throw new Error("database busy");
    },
  });
  await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(2), { timeout: 2000 });
  expect(log.error).toHaveBeenCalledTimes(1);
  expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ job: "flaky", err: expect.any(Error) }), "job failed");
});

test("stop() aborts the run's signal, waits for it and ends the job", async () => {
  let runs = 0;
  let sawAbort = false;
  let finished = false;
  const job = startJob({
    name: "stoppable",
    everyMs: 10,
    log: quietLog(),
    run: async ({ signal }) => {
      runs++;
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      sawAbort = signal.aborted;
      await sleep(10);
      finished = true;
    },
  });
  await vi.waitFor(() => expect(runs).toBe(1));
  await job.stop();
  expect(sawAbort).toBe(true);
  expect(finished).toBe(true);
  await sleep(40);
  expect(runs).toBe(1);
  await job.runNow();
  expect(runs).toBe(1);
});

test("stopAllJobs() stops every job", async () => {
  const counts = [0, 0];
  startJob({ name: "a", everyMs: 10, log: quietLog(), run: async () => void counts[0]!++ });
  startJob({ name: "b", everyMs: 10, log: quietLog(), run: async () => void counts[1]!++ });
  await vi.waitFor(() => expect(Math.min(...counts)).toBeGreaterThanOrEqual(1));
  await stopAllJobs();
  const after = [...counts];
  await sleep(50);
  expect(counts).toEqual(after);
});

test("a job's timer does not keep the process alive", async () => {
  const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
  startJob({ name: "unref", everyMs: 60_000, runAtStart: false, log: quietLog(), run: async () => {} });
  const timer = setTimeoutSpy.mock.results.at(-1)!.value as NodeJS.Timeout;
  setTimeoutSpy.mockRestore();
  expect(timer.hasRef()).toBe(false);
});

test("the interval must be positive", () => {
  expect(() => startJob({ name: "bad", everyMs: 0, log: quietLog(), run: async () => {} })).toThrow(/positive/);
});
