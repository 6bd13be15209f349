/**
 * Backups of the shop's data in one file, and their restore into a new place (docs/decisions/0070-backups.md).
 *
 * The file is a gzipped tar holding `manifest.json`, the database (`pglite-data.tar.gz`, the embedded
 * database's data folder; or `postgres.dump`, pg_dump's custom format) and `media/` (product pictures).
 * The embedded database can only be read by the process that has it open, so while the shop runs the
 * backup is written by the shop itself (`serveBackupRequests`, asked through a request file and SIGUSR2).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { pgliteExtensions, type DbHandle } from "#server/db/client.ts";

const run = promisify(execFile);

export type BackupManifest = {
  format: 1;
  database: "pglite" | "postgres";
  createdAt: string;
  /** The newest migration applied: a restore into an older shop would not know the newer tables. */
  migration: string | null;
};

const pgliteFile = "pglite-data.tar.gz";
const postgresFile = "postgres.dump";

/** The request file the backup command leaves in the data folder before it signals the running shop. */
export const backupRequestFile = "backup-request.json";
export type BackupRequest = { id: string; out: string };

async function latestMigration(handle: DbHandle): Promise<string | null> {
  // drizzle's journal of applied migrations; created_at is each migration's own timestamp.
  // Both drivers answer { rows }; the shared Db type does not say so.
  const result = (await handle.db.execute(sql`select hash from drizzle.__drizzle_migrations order by created_at desc limit 1`)) as {
    rows: { hash: string }[];
  };
  return result.rows[0]?.hash ?? null;
}

/** Packs the staging folder and the media folder into `out` (written beside it, then renamed: never half a file). */
async function pack(stagingDir: string, mediaDir: string | null, out: string) {
  const partial = `${out}.partial`;
  const args = ["-czf", partial, "-C", stagingDir, "."];
  if (mediaDir && fs.existsSync(mediaDir)) {
    // Stored as media/ whatever the folder is called here.
    args.push("-C", path.dirname(mediaDir), `--transform=s,^${path.basename(mediaDir)},media,`, path.basename(mediaDir));
  }
  await run("tar", args, { maxBuffer: 16 * 1024 * 1024 });
  fs.renameSync(partial, out);
}

function stagingFolder(prefix: string) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes a backup of the open embedded database and the media folder to `out`. */
export async function backupPglite(handle: DbHandle, mediaDir: string | null, out: string, now = new Date()): Promise<BackupManifest> {
  if (!handle.dumpDataDir) throw new Error("backupPglite needs the embedded database");
  const staging = stagingFolder("shop-backup-");
  try {
    const dump = await handle.dumpDataDir();
    fs.writeFileSync(path.join(staging, pgliteFile), Buffer.from(await dump.arrayBuffer()));
    const manifest: BackupManifest = { format: 1, database: "pglite", createdAt: now.toISOString(), migration: await latestMigration(handle) };
    fs.writeFileSync(path.join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await pack(staging, mediaDir, out);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Writes a backup of a PostgreSQL database (pg_dump, consistent while the shop runs) and the media folder to `out`. */
export async function backupPostgres(databaseUrl: string, mediaDir: string | null, out: string, now = new Date()): Promise<BackupManifest> {
  const staging = stagingFolder("shop-backup-");
  try {
    await run("pg_dump", ["--format=custom", "--no-owner", "--file", path.join(staging, postgresFile), databaseUrl]);
    const { stdout } = await run("psql", [
      databaseUrl,
      "--no-psqlrc",
      "--tuples-only",
      "--no-align",
      "--command",
      "select hash from drizzle.__drizzle_migrations order by created_at desc limit 1",
    ]).catch(() => ({ stdout: "" }));
    const manifest: BackupManifest = { format: 1, database: "postgres", createdAt: now.toISOString(), migration: stdout.trim() || null };
    fs.writeFileSync(path.join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await pack(staging, mediaDir, out);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

async function unpack(file: string) {
  const staging = stagingFolder("shop-restore-");
  await run("tar", ["-xzf", file, "-C", staging]);
  const manifestPath = path.join(staging, "manifest.json");
  if (!fs.existsSync(manifestPath)) throw new BackupFileError(`${file} is not a backup of the shop: it has no manifest.json`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as { format?: unknown };
  if (manifest.format !== 1) throw new BackupFileError(`${file} has backup format ${JSON.stringify(manifest.format)}; this shop reads format 1`);
  return { staging, manifest: manifest as BackupManifest };
}

export class BackupFileError extends Error {
  override name = "BackupFileError";
}

function copyMedia(staging: string, mediaDir: string) {
  const from = path.join(staging, "media");
  if (!fs.existsSync(from)) return;
  fs.mkdirSync(mediaDir, { recursive: true });
  fs.cpSync(from, mediaDir, { recursive: true });
}

/**
 * Restores an embedded-database backup into a new data folder (`<dataDir>/pglite` and `<dataDir>/media`,
 * or `mediaDir`). Refuses a folder that already holds a database: a restore never overwrites a shop.
 */
export async function restorePglite(file: string, dataDir: string, mediaDir = path.join(dataDir, "media")): Promise<BackupManifest> {
  const target = path.join(dataDir, "pglite");
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0)
    throw new BackupFileError(`${target} already holds a database: restore into a new folder`);
  const { staging, manifest } = await unpack(file);
  try {
    if (manifest.database !== "pglite") throw new BackupFileError(`${file} is a ${manifest.database} backup: restore it with --database-url`);
    fs.mkdirSync(target, { recursive: true });
    const dump = new Blob([fs.readFileSync(path.join(staging, pgliteFile))]);
    const client = await PGlite.create({ dataDir: target, loadDataDir: dump, extensions: pgliteExtensions });
    await client.query("select 1");
    await client.close();
    copyMedia(staging, mediaDir);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Restores a PostgreSQL backup into the (new, empty) database at `databaseUrl`, and its pictures into `mediaDir`. */
export async function restorePostgres(file: string, databaseUrl: string, mediaDir: string): Promise<BackupManifest> {
  const { staging, manifest } = await unpack(file);
  try {
    if (manifest.database !== "postgres") throw new BackupFileError(`${file} is an embedded-database backup: restore it with --data-dir`);
    await run("pg_restore", ["--no-owner", "--exit-on-error", "--single-transaction", "--dbname", databaseUrl, path.join(staging, postgresFile)]);
    copyMedia(staging, mediaDir);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * In the shop's process on the embedded database: SIGUSR2 asks for the backup described by the request
 * file in `dataDir`; the answer is `<out>.done.json` (the manifest, or the error). One at a time.
 */
export function serveBackupRequests(
  handle: DbHandle,
  dirs: { dataDir: string; mediaDir: string | null },
  log: { info: (o: object, m: string) => void },
) {
  let busy = false;
  const onSignal = () => {
    if (busy) return;
    const requestPath = path.join(dirs.dataDir, backupRequestFile);
    let request: BackupRequest;
    try {
      request = JSON.parse(fs.readFileSync(requestPath, "utf8")) as BackupRequest;
      fs.rmSync(requestPath, { force: true });
    } catch {
      return;
    }
    busy = true;
    const answer = (body: object) => fs.writeFileSync(`${request.out}.done.json`, `${JSON.stringify({ id: request.id, ...body })}\n`);
    backupPglite(handle, dirs.mediaDir, request.out)
      .then((manifest) => {
        log.info({ out: request.out }, "backup written");
        answer({ ok: true, manifest });
      })
      .catch((error: Error) => answer({ ok: false, error: error.message }))
      .finally(() => {
        busy = false;
      });
  };
  process.on("SIGUSR2", onSignal);
  return () => process.off("SIGUSR2", onSignal);
}
