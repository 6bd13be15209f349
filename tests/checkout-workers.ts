/**
 * Starts one "app process" of a checkout concurrency test (tests/checkout-worker.ts): its own pool,
 * one placeOrder per cart, all fired when `go` is called. Used by server/checkout, server/coupons and server/gift-cards;
 * `startTestWorker` starts other such processes (tests/customer-mails-worker.ts).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { onTestFinished } from "vitest";

export type CheckoutWorker = { ready: Promise<void>; outcomes: Promise<string[]>; go: () => void };

/** What every checkout of the worker types besides its cart: a discount code, a gift card, and an e-mail of its own or the same for all. */
export type CheckoutWorkerOptions = {
  discountCode?: string;
  giftCardCode?: string;
  email?: "own" | "shared";
  /** Every checkout by this signed-in customer, spending these loyalty points. */
  userId?: string;
  loyaltyPoints?: number;
};

export function startCheckoutWorker(databaseUrl: string, cartIds: string[], options: CheckoutWorkerOptions = {}): CheckoutWorker {
  return startTestWorker("tests/checkout-worker.ts", [databaseUrl, JSON.stringify(cartIds), JSON.stringify(options)]);
}

/** Any such process: `script` prints "ready", waits for "go" on stdin, then prints one JSON line of outcomes. */
export function startTestWorker<T = string>(script: string, args: string[]): { ready: Promise<void>; outcomes: Promise<T[]>; go: () => void } {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve(script), ...args], { stdio: ["pipe", "pipe", "inherit"] });
  onTestFinished(() => {
    if (child.exitCode === null) child.kill();
  });
  const lines = readline.createInterface({ input: child.stdout });
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const outcomes = new Promise<T[]>((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
    lines.on("line", (line) => {
      if (line === "ready") markReady();
      else resolve(JSON.parse(line) as T[]);
    });
  });
  return { ready, outcomes, go: () => child.stdin.write("go\n") };
}
