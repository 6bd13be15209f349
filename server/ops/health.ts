/**
 * Waiting for a started shop process to serve: polls its `GET /healthz` (200 once the database answers)
 * until it does. Used by the cluster (each app process, the load suite's shop), the benchmarks' shop and
 * the end-to-end journeys' shops (e2e/server.ts, e2e/peer-shop.ts).
 */
export async function waitForHealth(
  baseUrl: string,
  options: {
    /** Named in the error, e.g. "app process on port 3001". */
    name: string;
    timeoutMs: number;
    intervalMs?: number;
    /** Why the process can no longer answer (it exited), or null while it runs. */
    exited?: () => string | null;
  },
): Promise<void> {
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
