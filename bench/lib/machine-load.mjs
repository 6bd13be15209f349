// How busy the machine is with work that is not ours, for measurements that read time off the machine
// (Lighthouse's simulated throttling multiplies the trace's main-thread task times and keeps the server's
// observed answer times, so another job's CPU or disk use shows up as a slower page).
// Linux only (/proc); elsewhere every figure is null and nothing waits.
// Used by bench/lib/lighthouse-pages.mjs; docs/decisions/0033-lighthouse-on-a-shared-machine.md.
import fs from "node:fs";

/**
 * The machine's CPU time since boot in clock ticks over all cores, `{ busy, diskWait, total }` (diskWait:
 * idle while a process waited for the disk), or null without /proc.
 */
export function machineCpuTicks() {
  let line;
  try {
    line = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0];
  } catch {
    return null;
  }
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, diskWait: iowait, total: busy + idle + iowait };
}

/**
 * CPU ticks used so far by `rootPid` and every living process under it, with the time of the children
 * they have already reaped (cutime, cstime): a Chromium renderer that ended within a window still counts.
 */
export function processTreeCpuTicks(rootPid = process.pid) {
  const stats = new Map(); // pid -> { parent, ticks }
  let entries;
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let text;
    try {
      text = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // ended while we looked
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields start after the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    stats.set(Number(entry), { parent: Number(fields[1]), ticks: utime + stime + cutime + cstime });
  }
  const children = new Map();
  for (const [pid, { parent }] of stats) {
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(pid);
  }
  let ticks = 0;
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.pop();
    ticks += stats.get(pid)?.ticks ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return ticks;
}

/** A point to measure from: `othersShareSince(mark)` is the share of the machine's CPU others used since. */
export function markCpu(rootPid = process.pid) {
  return { machine: machineCpuTicks(), ours: processTreeCpuTicks(rootPid), rootPid };
}

/**
 * The share (0..1) of the machine's whole CPU capacity (all cores) that processes outside our tree used
 * since `mark`, plus the share it sat waiting for the disk (a page's server answers late when its writes
 * queue behind another job's), or null when it cannot be told (no /proc, or no time passed).
 */
export function othersShareSince(mark) {
  const machine = machineCpuTicks();
  const ours = processTreeCpuTicks(mark.rootPid);
  if (!mark.machine || !machine || mark.ours === null || ours === null) return null;
  const total = machine.total - mark.machine.total;
  if (total <= 0) return null;
  const others = machine.busy - mark.machine.busy - (ours - mark.ours) + (machine.diskWait - mark.machine.diskWait);
  return Math.min(1, Math.max(0, others / total));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until processes outside our tree use less than `busyShare` of the machine over a whole `windowMs`,
 * for at most `maxWaitMs` (always one window). Resolves to `{ windows, waitedMs, othersShare }`: the
 * windows measured, the time they took and the share of the last (null without /proc, and then it does not wait).
 */
export async function waitForQuietMachine({ busyShare, windowMs = 2_000, maxWaitMs, rootPid = process.pid }) {
  const startedAt = Date.now();
  for (let windows = 1; ; windows++) {
    const mark = markCpu(rootPid);
    if (!mark.machine) return { windows: 0, waitedMs: 0, othersShare: null };
    await sleep(windowMs);
    const othersShare = othersShareSince(mark);
    const waitedMs = Date.now() - startedAt;
    if (othersShare === null || othersShare < busyShare || waitedMs + windowMs > maxWaitMs) return { windows, waitedMs, othersShare };
  }
}

/** "37%" */
export function percent(share) {
  return share === null ? "?" : `${Math.round(share * 100)}%`;
}
