/**
 * Backups of the shop's data in one file, and their restore into a new place (docs/decisions/0070-backups.md).
 *
 * The file is a gzipped tar holding `manifest.json`, the database (`pglite-data.tar.gz`, the embedded
 * database's data folder; or `postgres.dump`, pg_dump's custom format), `media/` (product pictures) and,
 * when the shop generated it, the secret its links are signed with (`auth-secret`).
 * The embedded database can only be read by the process that has it open, so while the shop runs the
 * backup is written by the shop itself (`serveBackupRequests`, asked through a request file and SIGUSR2).
 */
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { authSecretFileName, resolveAuthSecret } from "#server/accounts/auth.ts";
import { pgliteExtensions, type DbHandle } from "#server/db/client.ts";
import type { Env } from "#server/env.ts";

const run = promisify(execFile);

export type BackupManifest = {
  format: 1;
  database: "pglite" | "postgres";
  createdAt: string;
  /** The newest migration applied: a restore into an older shop would not know the newer tables. */
  migration: string | null;
  /** Where the secret of the shop's links was kept, and a check that names it without revealing it (absent in older backups). */
  linkSecret?: { kept: LinkSecret["kept"]; check: string };
};

/**
 * The secret the shop signs its links with (the order pages in customers' e-mails, carts, sessions): without
 * the same one, a restored shop answers 404 to every link sent before. Generated into the data folder, it
 * travels in the backup; set as AUTH_SECRET, it stays in the environment and the restore checks it.
 */
export type LinkSecret = { value: string; kept: "data-folder" | "environment" };

export function linkSecretOf(env: Pick<Env, "AUTH_SECRET" | "DATA_DIR">): LinkSecret {
  return { value: resolveAuthSecret(env), kept: env.AUTH_SECRET ? "environment" : "data-folder" };
}

const secretCheckOf = (secret: string) => crypto.createHmac("sha256", secret).update("backup-secret-check").digest("hex").slice(0, 16);

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
  // Customers' data and maybe the links' secret: readable by the shop's user only.
  fs.chmodSync(partial, 0o600);
  fs.renameSync(partial, out);
}

function stagingFolder(prefix: string) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The manifest, and the generated secret beside it, into the staging folder. */
function writeManifest(staging: string, manifest: Omit<BackupManifest, "linkSecret">, secret: LinkSecret): BackupManifest {
  const complete: BackupManifest = { ...manifest, linkSecret: { kept: secret.kept, check: secretCheckOf(secret.value) } };
  if (secret.kept === "data-folder") fs.writeFileSync(path.join(staging, authSecretFileName), secret.value, { mode: 0o600 });
  fs.writeFileSync(path.join(staging, "manifest.json"), `${JSON.stringify(complete, null, 2)}\n`);
  return complete;
}

/** Writes a backup of the open embedded database and the media folder to `out`. */
export async function backupPglite(
  handle: DbHandle,
  mediaDir: string | null,
  out: string,
  secret: LinkSecret,
  now = new Date(),
): Promise<BackupManifest> {
  if (!handle.dumpDataDir) throw new Error("backupPglite needs the embedded database");
  const staging = stagingFolder("shop-backup-");
  try {
    const dump = await handle.dumpDataDir();
    fs.writeFileSync(path.join(staging, pgliteFile), Buffer.from(await dump.arrayBuffer()));
    const manifest = writeManifest(
      staging,
      { format: 1, database: "pglite", createdAt: now.toISOString(), migration: await latestMigration(handle) },
      secret,
    );
    await pack(staging, mediaDir, out);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Writes a backup of a PostgreSQL database (pg_dump, consistent while the shop runs) and the media folder to `out`. */
export async function backupPostgres(
  databaseUrl: string,
  mediaDir: string | null,
  out: string,
  secret: LinkSecret,
  now = new Date(),
): Promise<BackupManifest> {
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
    const manifest = writeManifest(
      staging,
      { format: 1, database: "postgres", createdAt: now.toISOString(), migration: stdout.trim() || null },
      secret,
    );
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

/** Where a restore puts the secret and which one the restored shop will run with (its environment's AUTH_SECRET, if any). */
export type SecretTarget = { dataDir: string; authSecret: string | undefined };

/**
 * Checked before anything is written: the restored shop must sign links with the backup's secret. The
 * generated one is put in the data folder; one kept in the environment must be set there, the same.
 * Returns what to write, if anything.
 */
function planLinkSecret(file: string, staging: string, manifest: BackupManifest, target: SecretTarget): { file: string; value: string } | null {
  const kept = manifest.linkSecret;
  // A backup made before they carried the secret: nothing to check or write.
  if (!kept) return null;
  const links = "the order pages in customers' e-mails, carts and sessions";
  if (kept.kept === "environment") {
    if (target.authSecret === undefined || secretCheckOf(target.authSecret) !== kept.check)
      throw new BackupFileError(
        `${file} comes from a shop that signs its links (${links}) with its AUTH_SECRET, which a backup does not carry: ` +
          `${target.authSecret === undefined ? "AUTH_SECRET is not set here" : "the AUTH_SECRET set here is another one"}. ` +
          "Set that shop's AUTH_SECRET and restore again, or every such link answers 404.",
      );
    return null;
  }
  const secretPath = path.join(staging, authSecretFileName);
  if (!fs.existsSync(secretPath)) throw new BackupFileError(`${file} lacks the secret its manifest names (${authSecretFileName}): it is incomplete`);
  const value = fs.readFileSync(secretPath, "utf8").trim();
  if (target.authSecret !== undefined && target.authSecret !== value)
    throw new BackupFileError(
      `${file} signs its links (${links}) with the secret its shop generated, which it carries; AUTH_SECRET set here is another one ` +
        "and would replace it, so every such link would answer 404. Unset AUTH_SECRET and restore again.",
    );
  const destination = path.join(target.dataDir, authSecretFileName);
  const present = fs.existsSync(destination) ? fs.readFileSync(destination, "utf8").trim() : null;
  if (present !== null && present !== value) throw new BackupFileError(`${destination} already holds another secret: restore into a new folder`);
  return { file: destination, value };
}

function placeLinkSecret(planned: { file: string; value: string } | null) {
  if (!planned) return;
  fs.mkdirSync(path.dirname(planned.file), { recursive: true });
  fs.writeFileSync(planned.file, planned.value, { mode: 0o600 });
}

function copyMedia(staging: string, mediaDir: string) {
  const from = path.join(staging, "media");
  if (!fs.existsSync(from)) return;
  fs.mkdirSync(mediaDir, { recursive: true });
  fs.cpSync(from, mediaDir, { recursive: true });
}

/**
 * Restores an embedded-database backup into a new data folder (`<dataDir>/pglite`, `<dataDir>/media` or
 * `mediaDir`, and the links' secret). Refuses a folder that already holds a database: a restore never
 * overwrites a shop. `authSecret`: the AUTH_SECRET the restored shop will run with, if any.
 */
export async function restorePglite(
  file: string,
  dataDir: string,
  options: { mediaDir?: string; authSecret?: string } = {},
): Promise<BackupManifest> {
  const mediaDir = options.mediaDir ?? path.join(dataDir, "media");
  const target = path.join(dataDir, "pglite");
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0)
    throw new BackupFileError(`${target} already holds a database: restore into a new folder`);
  const { staging, manifest } = await unpack(file);
  try {
    if (manifest.database !== "pglite") throw new BackupFileError(`${file} is a ${manifest.database} backup: restore it with --database-url`);
    const secret = planLinkSecret(file, staging, manifest, { dataDir, authSecret: options.authSecret });
    fs.mkdirSync(target, { recursive: true });
    const dump = new Blob([fs.readFileSync(path.join(staging, pgliteFile))]);
    const client = await PGlite.create({ dataDir: target, loadDataDir: dump, extensions: pgliteExtensions });
    await client.query("select 1");
    await client.close();
    copyMedia(staging, mediaDir);
    placeLinkSecret(secret);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Restores a PostgreSQL backup into the (new, empty) database at `databaseUrl`, its pictures into `mediaDir`
 * and, when the backup carries it, the links' secret into the restored shop's DATA_DIR (`secret`).
 */
export async function restorePostgres(file: string, databaseUrl: string, mediaDir: string, secret: SecretTarget): Promise<BackupManifest> {
  const { staging, manifest } = await unpack(file);
  try {
    if (manifest.database !== "postgres") throw new BackupFileError(`${file} is an embedded-database backup: restore it with --data-dir`);
    const plannedSecret = planLinkSecret(file, staging, manifest, secret);
    await run("pg_restore", ["--no-owner", "--exit-on-error", "--single-transaction", "--dbname", databaseUrl, path.join(staging, postgresFile)]);
    copyMedia(staging, mediaDir);
    placeLinkSecret(plannedSecret);
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
  dirs: { dataDir: string; mediaDir: string | null; linkSecret: LinkSecret },
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
    backupPglite(handle, dirs.mediaDir, request.out, dirs.linkSecret)
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
