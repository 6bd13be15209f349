// Starts the built shop: `npm start` builds first, then runs this file.
// Kept as plain JavaScript so Node runs it directly; all the logic lives in server/http/app.ts.
import path from "node:path";
import { fileURLToPath } from "node:url";

// glibc raises its mmap threshold after the first large free, and then keeps every later large buffer
// (pictures, PGlite's copies) in heaps it rarely returns: a fixed threshold hands them back to the system. At
// 512 KB, not lower: each page's compression encoder is reused from the heaps instead of mapped afresh
// (a fifth of a signed-in page's CPU at 128 KB).
// It is read once at process start, so the process restarts itself in place with it (same pid): idle RSS
// 404 -> 269 MB embedded, 206 -> 173 MB on PostgreSQL. The same restart sizes V8's heap for many short
// requests: the young generation at 8 MB per semi-space (it grew to 128 MB under load) and the old one
// growing by half its live size between full collections (V8 lets it grow up to 4x, mostly with dead pages).
// Under load on PostgreSQL the peak fell from 401-426 to 273-286 MB with more requests/s
// (docs/decisions/0075-process-memory.md). An operator's own settings are kept.
const heapFlags = ["--max-semi-space-size=8", "--heap-growing-percent=50"];
const givenFlags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
const missingHeapFlags = heapFlags.filter((flag) => !givenFlags.some((given) => given.startsWith(flag.slice(0, flag.indexOf("=")))));
// Two malloc arenas, not one per thread (libuv's compressions, libvips' drawings), whose freed blocks each
// heap keeps: about 14 MB less idle and 13 MB less at the peak, pictures no slower (decision 0096).
const needsMallocSettings = !process.env.MALLOC_MMAP_THRESHOLD_ || !process.env.MALLOC_ARENA_MAX;
if (process.platform === "linux" && (needsMallocSettings || missingHeapFlags.length > 0) && typeof process.execve === "function") {
  process.execve(process.execPath, [process.execPath, ...missingHeapFlags, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? String(512 * 1024),
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
  });
}

process.chdir(path.dirname(fileURLToPath(import.meta.url)));

const expectedFailures = new Set(["ConfigError", "DatabaseLockedError", "DatabaseUnreachableError"]);

try {
  const app = await import("./build/server/index.js");
  await app.startShop({
    clientDir: path.resolve("build/client"),
  });
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("build/server")) {
    console.error("The shop is not built yet: run `npm start` (it builds first) or `npm run build`.");
  } else if (expectedFailures.has(error?.name)) {
    console.error(error.message);
  } else if (error?.code === "EADDRINUSE") {
    console.error(`Port ${error.port} is already in use: stop the other process or set PORT.`);
  } else {
    console.error(`The shop could not start: ${error?.message ?? error}`);
  }
  process.exit(1);
}
