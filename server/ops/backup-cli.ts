/**
 * `npm run backup [-- --out FILE]`: the shop's data (database and pictures) in one file, while the shop runs.
 * `npm run restore -- FILE --data-dir FOLDER` (embedded database) or `-- FILE --database-url URL [--media-dir DIR]`
 * (PostgreSQL): into a new, empty place. See docs/deploy.md and server/ops/backup.ts.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, readEnv } from "#server/env.ts";
import { openPglite } from "#server/db/client.ts";
import { DatabaseLockedError, liveLockHolder } from "#server/db/pglite-lock.ts";
import { mediaStoreOf } from "#server/media/media-store.ts";
import {
  BackupFileError,
  backupPglite,
  backupPostgres,
  backupRequestFile,
  linkSecretOf,
  restorePglite,
  restorePostgres,
  type BackupManifest,
} from "./backup";

const [command, ...rest] = process.argv.slice(2);

/** A running shop writes the backup itself: ask it through the request file and SIGUSR2, then wait. */
async function askRunningShop(pid: number, dataDir: string, out: string): Promise<BackupManifest> {
  const id = crypto.randomUUID();
  const done = `${out}.done.json`;
  fs.rmSync(done, { force: true });
  fs.writeFileSync(path.join(dataDir, backupRequestFile), JSON.stringify({ id, out }));
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (!fs.existsSync(done)) continue;
    const answer = JSON.parse(fs.readFileSync(done, "utf8")) as { id: string; ok: boolean; manifest?: BackupManifest; error?: string };
    if (answer.id !== id) continue;
    fs.rmSync(done, { force: true });
    if (!answer.ok) throw new Error(`the shop (pid ${pid}) could not write the backup: ${answer.error}`);
    return answer.manifest!;
  }
  throw new Error(`the shop (pid ${pid}) did not answer within 10 minutes`);
}

async function backup(args: string[]) {
  const { values } = parseArgs({ args, options: { out: { type: "string" } } });
  const env = readEnv();
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const out = path.resolve(values.out ?? path.join("backups", `shop-${stamp}.tar.gz`));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // Pictures in a bucket stay there (the bucket has its own versioning and copies); a folder comes along.
  const mediaDir = mediaStoreOf(env).dir;
  if (env.DATABASE_URL) return { out, manifest: await backupPostgres(env.DATABASE_URL, mediaDir, out, linkSecretOf(env)) };
  const dataDir = path.resolve(env.DATA_DIR);
  const holder = liveLockHolder(path.join(dataDir, "pglite.lock"));
  if (holder) return { out, manifest: await askRunningShop(holder.pid, dataDir, out) };
  const handle = await openPglite(dataDir);
  try {
    return { out, manifest: await backupPglite(handle, mediaDir, out, linkSecretOf(env)) };
  } finally {
    await handle.close();
  }
}

async function restore(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { "data-dir": { type: "string" }, "database-url": { type: "string" }, "media-dir": { type: "string" } },
  });
  const file = positionals[0];
  if (!file || !values["data-dir"] === !values["database-url"]) throw new UsageError();
  // The restored shop's environment: its AUTH_SECRET must be the backup's, or unset when the backup carries one.
  const env = readEnv();
  if (values["data-dir"]) {
    const mediaDir = values["media-dir"] && path.resolve(values["media-dir"]);
    return restorePglite(path.resolve(file), path.resolve(values["data-dir"]), { mediaDir, authSecret: env.AUTH_SECRET });
  }
  if (!values["media-dir"]) throw new UsageError();
  const secret = { dataDir: path.resolve(env.DATA_DIR), authSecret: env.AUTH_SECRET };
  return restorePostgres(path.resolve(file), values["database-url"]!, path.resolve(values["media-dir"]), secret);
}

class UsageError extends Error {
  override message = [
    "usage: npm run backup [-- --out FILE]",
    "       npm run restore -- FILE --data-dir NEW_FOLDER",
    "       npm run restore -- FILE --database-url postgres://... --media-dir NEW_MEDIA_FOLDER",
  ].join("\n");
}

try {
  if (command === "backup") {
    const { out, manifest } = await backup(rest);
    console.log(`Backup of the ${manifest.database === "pglite" ? "embedded" : "PostgreSQL"} database and pictures written to ${out}`);
  } else if (command === "restore") {
    const manifest = await restore(rest);
    console.log(`Restored the backup of ${manifest.createdAt}. Start the shop with that folder or database.`);
  } else throw new UsageError();
} catch (error) {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof DatabaseLockedError || error instanceof BackupFileError) {
    console.error(error.message);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
  throw error;
}
