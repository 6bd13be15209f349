// `npm run bench`: builds when needed, then runs every benchmark in bench/ in turn.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const only = process.argv.slice(2);
const benches = fs
  .readdirSync(path.join(root, "bench"))
  .filter((name) => name.endsWith(".mjs") && (only.length === 0 || only.some((word) => name.includes(word))))
  .sort();
let failed = 0;
for (const name of benches) {
  console.log(`\n== bench/${name}`);
  const run = spawnSync(process.execPath, [path.join("bench", name)], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
