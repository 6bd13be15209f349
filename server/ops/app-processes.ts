/**
 * N processes of `node server.js` on 127.0.0.1, ports `firstPort` to `firstPort + N - 1`, kept running
 * as systemd keeps them in production (deploy/systemd/bimbi-felici@.service, `Restart=always`): a process
 * that exits is started again after 1 s, longer while it keeps failing at once. The first starts alone
 * (it migrates and, on an empty database, seeds), the others once it answers. Used by the local stack
 * (stack.ts) and through it by the load suite. Plain Node runs this file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { waitForHealth } from "./health.ts";

const root = path.resolve(import.meta.dirname, "../..");
/** The first start of an empty database migrates and seeds: well under a minute, but 2 busy cores are slow. */
const firstStartTimeoutMs = 300_000;
const restartDelayMs = { first: 1_000, max: 30_000 };
/** A process that ran this long before exiting is not "failing at once": its next restart waits 1 s again. */
const steadyAfterMs = 30_000;

export type AppProcessSlot = {
  index: number;
  port: number;
  /** The running process, or null while it waits to be started again. */
  child: ChildProcess | null;
  /** Times it was started again after an exit. */
  restarts: number;
};

export type AppProcesses = {
  slots: readonly AppProcessSlot[];
  /** Waits until the process in this slot answers /healthz (a restarted one, say). */
  waitUntilServing: (index: number, timeoutMs?: number) => Promise<void>;
  stop: () => Promise<void>;
};

export type AppProcessesOptions = {
  count: number;
  firstPort: number;
  /** Each process's environment (PORT and HOST are set here). */
  environment: Record<string, string | undefined>;
  /** Where their stdout and stderr go: this process's, nowhere, or an open file. */
  output: "inherit" | "ignore" | number;
  /** Told when a process exited and will be started again. */
  onExit?: (fields: { port: number; code: number | null; signal: string | null; restartInMs: number }) => void;
};

export async function startAppProcesses(options: AppProcessesOptions): Promise<AppProcesses> {
  let stopping = false;
  const slots: AppProcessSlot[] = Array.from({ length: options.count }, (_, index) => ({
    index,
    port: options.firstPort + index,
    child: null,
    restarts: 0,
  }));
  // This process ending any other way (a crash, a test runner's timeout) must not leave processes behind.
  const killAllOnExit = () => {
    for (const slot of slots) slot.child?.kill("SIGKILL");
  };
  process.once("exit", killAllOnExit);

  const launch = (slot: AppProcessSlot, failuresInARow = 0) => {
    const startedAt = Date.now();
    const child = spawn(process.execPath, ["server.js"], {
      cwd: root,
      env: { ...options.environment, HOST: "127.0.0.1", PORT: String(slot.port) },
      stdio: ["ignore", options.output, options.output],
    });
    slot.child = child;
    child.once("exit", (code, signal) => {
      slot.child = null;
      if (stopping) return;
      const failures = Date.now() - startedAt > steadyAfterMs ? 0 : failuresInARow + 1;
      const delay = Math.min(restartDelayMs.max, restartDelayMs.first * 2 ** Math.max(0, failures - 1));
      options.onExit?.({ port: slot.port, code, signal, restartInMs: delay });
      setTimeout(() => {
        if (stopping) return;
        slot.restarts += 1;
        launch(slot, failures);
      }, delay).unref();
    });
  };

  const waitUntilServing = async (index: number, timeoutMs = firstStartTimeoutMs) => {
    const slot = slots[index]!;
    await waitForHealth(`http://127.0.0.1:${slot.port}`, { name: `app process on port ${slot.port}`, timeoutMs });
  };

  const stop = async () => {
    stopping = true;
    process.removeListener("exit", killAllOnExit);
    await Promise.all(
      slots.map(async (slot) => {
        const child = slot.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        // server.js gives open requests 10 s; past 15 s it is stuck.
        const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exited;
        clearTimeout(killer);
      }),
    );
  };

  try {
    launch(slots[0]!);
    await waitUntilServing(0);
    for (const slot of slots.slice(1)) launch(slot);
    await Promise.all(slots.slice(1).map((slot) => waitUntilServing(slot.index)));
  } catch (error) {
    await stop();
    throw error;
  }
  return { slots, waitUntilServing, stop };
}
