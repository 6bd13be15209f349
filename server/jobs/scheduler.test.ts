import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { startJob, stopAllJobs, type JobLogger } from "./scheduler";

// The job runner is about time: its clock is Vitest's, moved by hand.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(async () => {
  // A run still sleeping on the fake clock ends once its timer fires.
  const stopped = stopAllJobs();
  if (vi.isFakeTimers()) await vi.runAllTimersAsync();
  await stopped;
  vi.useRealTimers();
});

function quietLog() {
  return { error: vi.fn<JobLogger["error"]>() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("runs at start, then again every interval", async () => {
  let runs = 0;
  startJob({ name: "tick", everyMs: 20, log: quietLog(), run: async () => void runs++ });
  await vi.advanceTimersByTimeAsync(0);
  expect(runs).toBe(1);
  await vi.advanceTimersByTimeAsync(40);
  expect(runs).toBe(3);
});

test("runAtStart: false waits one interval for the first run", async () => {
  let runs = 0;
  startJob({ name: "later", everyMs: 60, runAtStart: false, log: quietLog(), run: async () => void runs++ });
  await vi.advanceTimersByTimeAsync(59);
  expect(runs).toBe(0);
  await vi.advanceTimersByTimeAsync(1);
  expect(runs).toBe(1);
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
  expect(a).toBe(b);
  await vi.advanceTimersByTimeAsync(30);
  await Promise.all([a, b]);
  expect(runs).toBe(1);
  await vi.advanceTimersByTimeAsync(200);
  expect(runs).toBeGreaterThanOrEqual(3);
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
  await vi.advanceTimersByTimeAsync(10);
  expect(runs).toBe(2);
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
  await vi.advanceTimersByTimeAsync(0);
  expect(runs).toBe(1);
  const stopped = job.stop();
  await vi.advanceTimersByTimeAsync(10);
  await stopped;
  expect(sawAbort).toBe(true);
  expect(finished).toBe(true);
  await vi.advanceTimersByTimeAsync(40);
  expect(runs).toBe(1);
  await job.runNow();
  expect(runs).toBe(1);
});

test("stopAllJobs() stops every job", async () => {
  const counts = [0, 0];
  startJob({ name: "a", everyMs: 10, log: quietLog(), run: async () => void counts[0]!++ });
  startJob({ name: "b", everyMs: 10, log: quietLog(), run: async () => void counts[1]!++ });
  await vi.advanceTimersByTimeAsync(0);
  expect(counts).toEqual([1, 1]);
  await stopAllJobs();
  await vi.advanceTimersByTimeAsync(50);
  expect(counts).toEqual([1, 1]);
});

test("a job's timer does not keep the process alive", async () => {
  // Node's own timer, which knows whether it holds the process.
  vi.useRealTimers();
  const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
  startJob({ name: "unref", everyMs: 60_000, runAtStart: false, log: quietLog(), run: async () => {} });
  const timer = setTimeoutSpy.mock.results.at(-1)!.value as NodeJS.Timeout;
  setTimeoutSpy.mockRestore();
  expect(timer.hasRef()).toBe(false);
});

test("the interval must be positive", () => {
  expect(() => startJob({ name: "bad", everyMs: 0, log: quietLog(), run: async () => {} })).toThrow(/positive/);
});
