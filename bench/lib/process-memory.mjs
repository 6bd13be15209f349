// A process's memory as Linux shows it from outside (/proc), for the benches that watch the shop's process.
import fs from "node:fs";

const mb = (kb) => Math.round(kb / 1024);

/** Resident and peak resident memory of a process, in MB: RSS split into anonymous and file-backed pages. */
export function memoryOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { rssMb: mb(kb("VmRSS")), peakRssMb: mb(kb("VmHWM")), anonMb: mb(kb("RssAnon")), fileMb: mb(kb("RssFile")) };
}

/**
 * The resident part of the process's WebAssembly memories, in MB, from /proc/<pid>/smaps: V8 reserves each
 * memory as one 8 GiB range (its 32-bit address space and guard pages) and makes only the memory's current
 * size accessible, so a memory shows as a read-write mapping followed by an inaccessible one of gigabytes,
 * which nothing else in a Node process maps.
 */
export function wasmResidentMbOf(pid) {
  const mappings = [];
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) (\S+)/.exec(line);
    if (range) mappings.push({ start: BigInt(`0x${range[1]}`), end: BigInt(`0x${range[2]}`), perms: range[3], rssKb: 0 });
    else if (line.startsWith("Rss:") && mappings.length > 0) mappings.at(-1).rssKb = Number(/(\d+)/.exec(line)[1]);
  }
  let residentKb = 0;
  for (const [at, mapping] of mappings.entries()) {
    const guard = mappings[at + 1];
    const isGuard = guard && guard.start === mapping.end && guard.perms.startsWith("---") && guard.end - guard.start >= 1024n ** 3n;
    if (isGuard && mapping.perms.startsWith("rw")) residentKb += mapping.rssKb;
  }
  return mb(residentKb);
}
