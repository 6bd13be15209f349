import path from "node:path";
import { drizzle as drizzleNodePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type pg from "pg";
import type { DbHandle } from "./client";

export const migrationsFolder = path.resolve("server/db/migrations");

/** Held while migrating: several app processes starting at once on one PostgreSQL migrate once (the others wait, then find nothing to do). */
const migrationLockKey = 7_401_023;

/** Applies committed drizzle-kit migrations (never `push`), on either driver. */
export async function migrateDatabase(handle: DbHandle) {
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  // A session-level advisory lock lives on one connection: the migrations run on that same one.
  const pool = (handle.db as unknown as NodePgDatabase & { $client: pg.Pool }).$client;
  const client = await pool.connect();
  try {
    await client.query(`select pg_advisory_lock(${migrationLockKey})`);
    await migrateNodePg(drizzleNodePg({ client }), { migrationsFolder });
  } finally {
    // An unlock fails only on a broken connection, whose session (and lock) ends with it.
    await client.query(`select pg_advisory_unlock(${migrationLockKey})`).catch(() => {});
    client.release();
  }
}
