import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, onTestFinished, test } from "vitest";
import { currentLockHolder, DatabaseLockedError, processStartTicks, takePgliteLock } from "./pglite-lock";

const linux = fs.existsSync("/proc/self/stat");

function lockFileIn() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-lock-"));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, "pglite.lock");
}

/** A live process that is not a shop: `sleep`, ended after the test. */
async function unrelatedProcess() {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  await new Promise((resolve) => child.once("spawn", resolve));
  onTestFinished(() => void child.kill());
  return child.pid!;
}

const holderIn = (lockFile: string) => JSON.parse(fs.readFileSync(lockFile, "utf8")) as { pid: number; startTicks: string | null; command: string };

test("a free folder is locked in this process's name: pid, start time and command", () => {
  const lockFile = lockFileIn();
  takePgliteLock(lockFile);
  expect(holderIn(lockFile)).toEqual(currentLockHolder());
  expect(holderIn(lockFile).pid).toBe(process.pid);
});

test.runIf(linux)("a lock naming a pid now used by another program is stale: it is taken over", async () => {
  const lockFile = lockFileIn();
  const pid = await unrelatedProcess();
  // The shop that wrote it ran under this pid before; the pid now belongs to `sleep`, started later.
  fs.writeFileSync(lockFile, JSON.stringify({ pid, startTicks: "1", command: "node server.js" }));
  takePgliteLock(lockFile);
  expect(holderIn(lockFile).pid).toBe(process.pid);

  // PID 1 is alive and is never this shop's earlier run.
  fs.writeFileSync(lockFile, JSON.stringify({ pid: 1, startTicks: "999999999", command: "node server.js" }));
  takePgliteLock(lockFile);
  expect(holderIn(lockFile).pid).toBe(process.pid);
});

test.runIf(linux)("an older lock with a bare pid of a live program that is not Node is stale too", async () => {
  const lockFile = lockFileIn();
  fs.writeFileSync(lockFile, String(await unrelatedProcess()));
  takePgliteLock(lockFile);
  expect(holderIn(lockFile).pid).toBe(process.pid);
});

test("a lock whose process has ended is taken over", () => {
  const lockFile = lockFileIn();
  fs.writeFileSync(lockFile, JSON.stringify({ pid: 2 ** 22 + 1, startTicks: "5", command: "node server.js" }));
  takePgliteLock(lockFile);
  expect(holderIn(lockFile).pid).toBe(process.pid);
});

test.runIf(linux)("a lock really held by another live process is refused, naming that process and what to do", () => {
  const lockFile = lockFileIn();
  // The test runner's parent, as it would have written the lock itself.
  const holder = { pid: process.ppid, startTicks: processStartTicks(process.ppid), command: "node server.js" };
  fs.writeFileSync(lockFile, JSON.stringify(holder));
  let refusal: unknown;
  try {
    takePgliteLock(lockFile);
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(DatabaseLockedError);
  const message = (refusal as Error).message;
  expect(message).toContain(`in use by process ${process.ppid} (`);
  expect(message).toContain(`kill ${process.ppid}`);
  expect(message).toContain("DATABASE_URL");
  expect(message).toContain(`delete ${lockFile}`);
  expect(message).toMatch(/started \d{4}-\d\d-\d\dT/);
  expect(holderIn(lockFile)).toEqual(holder);
});
