/**
 * The embedded database's lock: two processes must never open one PGlite folder. The lock file names
 * its holder by pid, start time and command line, so a pid the system has since given to another
 * program (after a crash or a reboot) is recognised as a stale lock and taken over, and a lock
 * really held names the process to stop.
 */
import fs from "node:fs";
import path from "node:path";

export class DatabaseLockedError extends Error {
  override name = "DatabaseLockedError";
}

/** Who holds the lock; `startTicks` (Linux /proc) tells a pid's first owner from a later one. */
export type LockHolder = { pid: number; startTicks: string | null; command: string };

/** This process, as its lock file describes it. */
export function currentLockHolder(): LockHolder {
  return { pid: process.pid, startTicks: processStartTicks(process.pid), command: commandLineOf(process.pid) ?? process.argv.join(" ") };
}

export function takePgliteLock(lockFile: string, self: LockHolder = currentLockHolder()) {
  const text = `${JSON.stringify(self)}\n`;
  try {
    fs.writeFileSync(lockFile, text, { flag: "wx" });
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const holder = readLockHolder(lockFile);
  if (holder && holder.pid !== self.pid && isLockHolderLive(holder)) {
    const command = commandLineOf(holder.pid) ?? holder.command;
    const startedAt = processStartedAt(holder.pid);
    throw new DatabaseLockedError(
      `The embedded database in ${path.dirname(lockFile)} is in use by process ${holder.pid} (${command || "unknown command"}` +
        `${startedAt ? `, started ${startedAt.toISOString()}` : ""}). Stop that shop first (kill ${holder.pid}), or set DATABASE_URL ` +
        `to use PostgreSQL. If that process is not a shop using this folder, delete ${lockFile} and start again.`,
    );
  }
  fs.writeFileSync(lockFile, text);
}

/** The process that has the embedded database open now, or null (no lock, or a stale one). */
export function liveLockHolder(lockFile: string): LockHolder | null {
  if (!fs.existsSync(lockFile)) return null;
  const holder = readLockHolder(lockFile);
  return holder && isLockHolderLive(holder) ? holder : null;
}

/** The lock's holder; an older lock holds the bare pid; unreadable content: nobody. */
function readLockHolder(lockFile: string): LockHolder | null {
  const text = fs.readFileSync(lockFile, "utf8").trim();
  if (/^\d+$/.test(text)) return { pid: Number(text), startTicks: null, command: "" };
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (typeof parsed.pid !== "number" || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return null;
    return { pid: parsed.pid, startTicks: typeof parsed.startTicks === "string" ? parsed.startTicks : null, command: String(parsed.command ?? "") };
  } catch {
    return null;
  }
}

/**
 * The holder still runs: its pid is alive and, where the system tells (Linux), it is the same process
 * (same start time), or for a bare-pid lock at least a Node process. Elsewhere a live pid is trusted.
 */
function isLockHolderLive(holder: LockHolder): boolean {
  if (!isProcessAlive(holder.pid)) return false;
  const startTicks = processStartTicks(holder.pid);
  if (startTicks === null) return true;
  if (holder.startTicks !== null) return holder.startTicks === startTicks;
  return /(^|\/)(node|tsx)[\w.-]*(\s|$)/.test(commandLineOf(holder.pid) ?? "");
}

/** True when a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isProcessAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Field 22 of /proc/<pid>/stat (clock ticks after boot), read after the parenthesised name, which may hold spaces. */
export function processStartTicks(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function commandLineOf(pid: number): string | null {
  try {
    const line = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return line || null;
  } catch {
    return null;
  }
}

/** Linux counts start times in USER_HZ ticks, 100 a second on every architecture Node runs on. */
function processStartedAt(pid: number): Date | null {
  const startTicks = processStartTicks(pid);
  if (startTicks === null) return null;
  const ticks = Number(startTicks);
  try {
    const bootSeconds = Number(/^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"))?.[1]);
    return Number.isFinite(ticks) && bootSeconds ? new Date(bootSeconds * 1000 + ticks * 10) : null;
  } catch {
    return null;
  }
}
