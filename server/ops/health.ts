import net from "node:net";

type WaitOptions = {
  /** Named in the error, e.g. "app process on port 3001". */
  name: string;
  timeoutMs: number;
  intervalMs?: number;
  /** Why the process can no longer answer (it exited), or null while it runs. */
  exited?: () => string | null;
};

/**
 * Waiting for a started shop process to serve: polls its `GET /healthz` (200 once the database answers)
 * until it does. Used by the cluster (each app process, the load suite's shop), the benchmarks' shop and
 * the end-to-end journeys' shops (e2e/server.ts, e2e/peer-shop.ts).
 */
export async function waitForHealth(baseUrl: string, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastProblem = "no answer yet";
  while (Date.now() < deadline) {
    const exited = options.exited?.() ?? null;
    if (exited) throw new Error(`${options.name} exited during start-up: ${exited}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
      lastProblem = `GET /healthz answered ${response.status}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
  }
  throw new Error(`${options.name} did not answer /healthz within ${Math.round(options.timeoutMs / 1000)} s (${lastProblem})`);
}

/** Whether something accepts TCP connections at host:port, asked once (PostgreSQL before a suite needs it). */
export function acceptsConnections(host: string, port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: timeoutMs });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Waiting for a started process that has no health check of its own (nginx) to listen on host:port. */
export async function waitForPort(host: string, port: number, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    const exited = options.exited?.() ?? null;
    if (exited) throw new Error(`${options.name} exited during start-up: ${exited}`);
    if (await acceptsConnections(host, port)) return;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
  throw new Error(`${options.name}: nothing listens on ${host}:${port} after ${Math.round(options.timeoutMs / 1000)} s`);
}
