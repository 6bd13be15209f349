import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { takePgliteLock } from "./pglite-lock";
import * as schema from "./schema";

/** One type for both drivers: services take `db: Db` as their first argument. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;

export type DbHandle = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs `select 1`; used by /healthz. */
  ping: () => Promise<void>;
  /** The embedded database's whole data folder as one gzipped tar, consistent while the shop runs (server/ops/backup.ts). */
  dumpDataDir?: () => Promise<Blob>;
  close: () => Promise<void>;
};

export function connectPostgres(url: string, poolSize = 10): DbHandle {
  // JIT off: the shop's queries are short, and compiling a plan whose estimate passes jit_above_cost (a
  // listing's price order over 100,000 products) took longer than running it (bench/scale.mjs).
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000, options: "-c jit=off" });
  // An idle client that loses its server (PostgreSQL restart) must not crash the process.
  pool.on("error", () => {});
  const db = drizzleNodePg({ client: pool, schema, casing: "snake_case" }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    ping: async () => {
      await pool.query("select 1");
    },
    close: () => pool.end(),
  };
}

export const pgliteExtensions = { pg_trgm, unaccent };

/**
 * PostgreSQL's default 128 MB of shared buffers lives in PGlite's WebAssembly memory, which is resident once
 * touched and never given back; the sample shop's database is 13 MB, and a page PGlite does not keep is read
 * from the operating system's file cache. 32 MB: 105 MB less resident (docs/decisions/0075-process-memory.md);
 * 16 MB, still the whole sample database: up to 16 MB less (docs/decisions/0096-memory-and-the-build-table.md).
 */
const pgliteStartParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

/** Wraps an open PGlite instance (tests load a migrated template into one). */
export function wrapPglite(client: PGlite, onClose: () => void = () => {}): DbHandle {
  const db = drizzlePglite({ client, schema, casing: "snake_case" }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    ping: async () => {
      await client.query("select 1");
    },
    // Inside a transaction of its own, so that no other transaction is half done in the copy; the
    // checkpoint first makes a restore start without replaying the log.
    dumpDataDir: async () => {
      await client.exec("checkpoint");
      return client.transaction(() => client.dumpDataDir("gzip"));
    },
    close: async () => {
      await client.close();
      onClose();
    },
  };
}

/**
 * Opens the embedded database in `dataDir`. Two processes must never open one PGlite folder: the lock
 * file names its holder (pglite-lock.ts); a stale one is taken over.
 */
export async function openPglite(dataDir: string): Promise<DbHandle> {
  const folder = path.resolve(dataDir, "pglite");
  fs.mkdirSync(folder, { recursive: true });
  const lockFile = path.resolve(dataDir, "pglite.lock");
  takePgliteLock(lockFile);
  const isNewFolder = !fs.existsSync(path.join(folder, "PG_VERSION"));
  const open = () => PGlite.create({ dataDir: folder, extensions: pgliteExtensions, startParams: pgliteStartParams });
  let client = await open();
  // The instance that ran initdb keeps what initdb touched of its WebAssembly memory for as long as it lives
  // (165 MB more resident on a first start); opened again, the database starts like on any later start.
  if (isNewFolder) {
    await client.close();
    client = await open();
  }
  return wrapPglite(lettingIoInBetween(client), () => fs.rmSync(lockFile, { force: true }));
}

/**
 * PGlite runs each statement synchronously in this thread and hands its lock to the next waiting query
 * through promises alone, so under load one query followed another without the event loop ever polling
 * the network: requests were read late and some connections starved (at 50 connections, answers after
 * 8-10 s while the server's own timing read 1 s at most). Each statement outside a transaction now starts
 * after the event loop's next turn (setImmediate): the network is polled between statements.
 */
function lettingIoInBetween(client: PGlite): PGlite {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  client.query = (async (...args: Parameters<PGlite["query"]>) => {
    await nextTurn();
    return query(...args);
  }) as PGlite["query"];
  client.exec = async (...args: Parameters<PGlite["exec"]>) => {
    await nextTurn();
    return exec(...args);
  };
  client.transaction = async <T>(callback: Parameters<PGlite["transaction"]>[0]) => {
    await nextTurn();
    return transaction(callback) as Promise<T>;
  };
  return client;
}
