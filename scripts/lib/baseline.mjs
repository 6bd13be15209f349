// The previous build, for the benches to run beside this one in the same run (decision 0096): BENCH_BASELINE_REF
// (a commit, branch or tag), by default where this branch left main (its merge base), or the commit before HEAD
// when HEAD is on main. Checked out once per commit into node_modules/.cache/bench-baseline/<commit> with
// `git worktree add`, given this checkout's node_modules, built there, and kept for the next runs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root } from "./suite.mjs";

function git(...args) {
  const result = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** The commit the baseline is built from. */
export function baselineCommit(ref = process.env.BENCH_BASELINE_REF) {
  if (ref) {
    const commit = git("rev-parse", "--verify", `${ref}^{commit}`);
    if (!commit) throw new Error(`BENCH_BASELINE_REF=${ref} names no commit`);
    return commit;
  }
  const head = git("rev-parse", "HEAD");
  const main = git("rev-parse", "--verify", "origin/main^{commit}") ?? git("rev-parse", "--verify", "main^{commit}");
  const forkPoint = main ? git("merge-base", "HEAD", main) : null;
  return forkPoint && forkPoint !== head ? forkPoint : git("rev-parse", "HEAD^");
}

/** The folder of the baseline's checkout with its build, made and built when missing; the build's exit code on failure. */
export function prepareBaseline(commit = baselineCommit()) {
  const folder = path.join(root, "node_modules/.cache/bench-baseline", commit.slice(0, 12));
  const built = path.join(folder, "build/server/index.js");
  if (fs.existsSync(built)) return { folder, commit };
  if (!fs.existsSync(path.join(folder, "package.json"))) {
    fs.mkdirSync(folder, { recursive: true });
    const written = spawnSync("sh", ["-c", `git archive ${commit} | tar -x -C "${folder}"`], { cwd: root, stdio: "inherit" });
    if (written.status !== 0) throw new Error(`writing the files of ${commit} failed`);
  }
  // The same dependencies as this checkout: a baseline whose package-lock.json differs is built with these.
  if (!fs.existsSync(path.join(folder, "node_modules"))) fs.symlinkSync(path.join(root, "node_modules"), path.join(folder, "node_modules"), "dir");
  console.log(`building the baseline ${commit.slice(0, 12)} in ${path.relative(root, folder)}...`);
  // With this node first on the PATH: the CLI's own `#!/usr/bin/env node` may find an older one.
  const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` };
  const build = spawnSync(path.join(folder, "node_modules/.bin/react-router"), ["build"], {
    cwd: folder,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (build.status !== 0) throw new Error(`building the baseline ${commit} failed (exit ${build.status})`);
  return { folder, commit };
}
