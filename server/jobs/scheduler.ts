/**
 * A tiny in-process job runner for the shop's background work (mail delivery, rate refreshes...).
 *
 * - A job runs once at start (unless `runAtStart: false`), then `everyMs` after the previous run
 *   ended: runs of one job never overlap, however slow one is.
 * - Errors are logged, never thrown: one bad run cannot crash the process or stop later runs.
 * - Timers are unref'd, so a job never keeps the process alive.
 * - `stop()` clears the timer, aborts the running run's signal and waits for it; `stopAllJobs()`
 *   does it for every job (shutdown, before the database closes).
 *
 * Several app processes each run their own jobs; a job that must not run twice at once across
 * processes guards itself in the database (the mail job claims rows with SKIP LOCKED).
 */

export type JobLogger = {
  error: (fields: object, message: string) => void;
  debug?: (fields: object, message: string) => void;
};

export type JobOptions = {
  name: string;
  everyMs: number;
  /** Receives a signal aborted by stop(); a long run should give up soon after. */
  run: (context: { signal: AbortSignal }) => Promise<unknown>;
  log: JobLogger;
  /** Default true: the first run starts right away rather than after `everyMs`. */
  runAtStart?: boolean;
  /** Called once by stop() (also through stopAllJobs): let go of what the job subscribed to. */
  onStop?: () => void;
};

export type Job = {
  readonly name: string;
  /** Runs now, or waits for the run in progress instead of starting a second one. */
  runNow: () => Promise<void>;
  /** Runs in `delayMs` (calls meanwhile join that run): work that was just queued goes out without waiting for the next poll. */
  runSoon: (delayMs: number) => void;
  stop: () => Promise<void>;
};

const runningJobs = new Set<Job>();

export function startJob(options: JobOptions): Job {
  const { name, everyMs, log } = options;
  if (!(everyMs > 0)) throw new Error(`job ${name}: everyMs must be positive`);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void runNow(), everyMs);
    timer.unref();
  };

  const runOnce = async () => {
    const startedAt = performance.now();
    try {
      await options.run({ signal: controller.signal });
    } catch (error) {
      log.error({ err: error, job: name }, "job failed");
    }
    log.debug?.({ job: name, ms: Math.round(performance.now() - startedAt) }, "job ran");
  };

  const runNow = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (!running) {
      clearTimeout(timer);
      running = runOnce().finally(() => {
        running = undefined;
        schedule();
      });
    }
    return running;
  };

  const job: Job = {
    name,
    runNow,
    runSoon: (delayMs) => {
      if (stopped || soon) return;
      soon = setTimeout(() => {
        soon = undefined;
        // runOnce logs a failed run itself; nothing waits for the timer's run.
        void runNow();
      }, delayMs);
      soon.unref();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(soon);
      options.onStop?.();
      controller.abort();
      runningJobs.delete(job);
      await running;
    },
  };
  runningJobs.add(job);
  if (options.runAtStart === false) schedule();
  // The first run starts now, in the background, like every later one (runOnce logs a failure).
  else void runNow();
  return job;
}

/** Stops every started job and waits for the runs in progress. */
export async function stopAllJobs(): Promise<void> {
  await Promise.all([...runningJobs].map((job) => job.stop()));
}
