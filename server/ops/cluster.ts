/**
 * Several app processes behind one address (docs/deploy.md): `npm run serve:cluster`, after
 * `npm run build`. Starts CLUSTER_WORKERS processes of `node server.js` on 127.0.0.1, ports PORT+1
 * to PORT+N, and the front (front.ts) on HOST:PORT. The first process starts alone (it migrates and,
 * on an empty database, seeds and draws the sample pictures), the others once it answers.
 * A process that exits is started again: after 1 s, longer while it keeps failing at once.
 * SIGTERM or SIGINT: the front stops taking connections and the processes finish their requests.
 *
 * Needs DATABASE_URL (the embedded database belongs to one process) and AUTH_SECRET (every process
 * must sign and read the same sessions). Plain Node runs this file: `node server/ops/cluster.ts`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, publicUrlOf, readEnv, refuseLocalPublicUrl } from "../env.ts";
import { createLogger } from "../log.ts";
import { startFront, type Front } from "./front.ts";
import { waitForHealth } from "./health.ts";

const root = path.resolve(import.meta.dirname, "../..");
/** The first start of an empty database seeds the catalogue and draws its pictures: over a minute on 2 cores. */
const firstStartTimeoutMs = 300_000;
const restartDelayMs = { first: 1_000, max: 30_000 };
/** A process that ran this long before exiting is not "failing at once": its next restart waits 1 s again. */
const steadyAfterMs = 30_000;

export type WorkerSlot = {
  index: number;
  port: number;
  /** The running process, or null while it waits to be started again. */
  child: ChildProcess | null;
  /** Times it was started again after an exit. */
  restarts: number;
};

export type Cluster = {
  /** The front's address. */
  url: string;
  slots: readonly WorkerSlot[];
  /** Waits until the process in this slot answers /healthz (a restarted one, say). */
  waitUntilServing: (index: number, timeoutMs?: number) => Promise<void>;
  stop: () => Promise<void>;
};

export type ClusterOptions = {
  /** The environment the shop's settings are read from (process.env by default). */
  environment?: Record<string, string | undefined>;
  /** Port of the first app process; the others follow. Default: the front's PORT + 1. */
  firstWorkerPort?: number;
  /** Where each app process's stdout and stderr go: this process's (default), nowhere, or an open file. */
  output?: "inherit" | "ignore" | number;
};

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const environment = options.environment ?? process.env;
  const env = readEnv(environment);
  refuseLocalPublicUrl(env);
  if (!env.DATABASE_URL) throw new ConfigError("Several app processes need DATABASE_URL: the embedded database can be opened by one process only.");
  if (!env.AUTH_SECRET)
    throw new ConfigError("Several app processes need AUTH_SECRET (32+ characters): each must read the sessions the others signed.");
  const log = createLogger(env.LOG_LEVEL).child({ component: "front" });
  const count = env.CLUSTER_WORKERS ?? os.availableParallelism();
  const firstPort = options.firstWorkerPort ?? env.PORT + 1;
  const workerEnv = {
    ...environment,
    HOST: "127.0.0.1",
    PUBLIC_URL: publicUrlOf(env),
    // The front is one more proxy hop in front of every process.
    TRUST_PROXY: String(env.TRUST_PROXY + 1),
  };

  let stopping = false;
  const slots: WorkerSlot[] = Array.from({ length: count }, (_, index) => ({ index, port: firstPort + index, child: null, restarts: 0 }));
  // This process ending any other way (a crash, a test runner's timeout) must not leave processes behind.
  const killWorkersOnExit = () => {
    for (const slot of slots) slot.child?.kill("SIGKILL");
  };
  process.once("exit", killWorkersOnExit);

  const launch = (slot: WorkerSlot, failuresInARow = 0) => {
    const startedAt = Date.now();
    const child = spawn(process.execPath, ["server.js"], {
      cwd: root,
      env: { ...workerEnv, PORT: String(slot.port) },
      stdio: ["ignore", options.output ?? "inherit", options.output ?? "inherit"],
    });
    slot.child = child;
    child.once("exit", (code, signal) => {
      slot.child = null;
      if (stopping) return;
      const failures = Date.now() - startedAt > steadyAfterMs ? 0 : failuresInARow + 1;
      const delay = Math.min(restartDelayMs.max, restartDelayMs.first * 2 ** Math.max(0, failures - 1));
      log.warn({ port: slot.port, code, signal, restartInMs: delay }, "app process exited; starting it again");
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

  const stopWorkers = async () => {
    stopping = true;
    process.removeListener("exit", killWorkersOnExit);
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

  let front: Front | undefined;
  try {
    launch(slots[0]!);
    await waitUntilServing(0);
    for (const slot of slots.slice(1)) launch(slot);
    await Promise.all(slots.slice(1).map((slot) => waitUntilServing(slot.index)));
    front = await startFront({
      host: env.HOST,
      port: env.PORT,
      upstreams: slots.map((slot) => ({ host: "127.0.0.1", port: slot.port })),
      trustedHops: env.TRUST_PROXY,
      log: (level, fields, message) => log[level](fields, message),
    });
  } catch (error) {
    await stopWorkers();
    throw error;
  }
  log.info({ url: front.url, processes: slots.map((slot) => slot.port), publicUrl: workerEnv.PUBLIC_URL }, "front ready");

  return {
    url: front.url,
    slots,
    waitUntilServing,
    stop: async () => {
      await front.close();
      await stopWorkers();
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  startCluster().then(
    (cluster) => {
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        // A stop that fails is an unhandled rejection, which ends the process as well.
        void cluster.stop().then(() => process.exit(0));
      };
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
    },
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : `The cluster could not start: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
