/**
 * A fresh, migrated database for one integration test (or one test file):
 *
 *   const handle = await createTestDb();
 *   onTestFinished(() => handle.close());
 *
 * On PGlite (project "pglite") it loads the template dumped once per run by tests/db.global-setup.ts.
 * On PostgreSQL (project "postgres", TEST_DATABASE_URL set) it is a new database copied from a migrated
 * template, dropped by close(), so test files run in parallel without sharing rows.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import { describe, inject, test } from "vitest";
import { connectPostgres, pgliteExtensions, wrapPglite, type Db, type DbHandle } from "#server/db/client.ts";
import { runAdminQuery, withDatabase, type TestDbTemplate } from "./db.global-setup";

const template: TestDbTemplate = inject("testDbTemplate");

export const testDbKind: DbHandle["kind"] = template.kind;
export const isOnPostgres = testDbKind === "postgres";

/**
 * Concurrency and locking tests: PGlite has a single connection and cannot race,
 * so these run on real PostgreSQL only (reported as skipped on PGlite).
 */
export const describeOnPostgres = describe.skipIf(!isOnPostgres);
export const testOnPostgres = test.skipIf(!isOnPostgres);

export type TestDbOptions = {
  /** Connections in the PostgreSQL pool (concurrency tests want several); ignored on PGlite. */
  poolSize?: number;
};

export async function createTestDb(options: TestDbOptions = {}): Promise<DbHandle> {
  const handle =
    template.kind === "pglite"
      ? await loadPgliteTemplate(template.dumpFile)
      : await copyPostgresTemplate(template, options.poolSize ?? 10);
  // close() may be called twice (a test's own cleanup and onTestFinished): only the first one acts.
  let closing: Promise<void> | undefined;
  return { ...handle, close: () => (closing ??= handle.close()) };
}

let pgliteTemplate: Promise<Blob> | undefined;

async function loadPgliteTemplate(dumpFile: string) {
  pgliteTemplate ??= fs.promises.readFile(dumpFile).then((bytes) => new Blob([bytes]));
  const client = await PGlite.create({ loadDataDir: await pgliteTemplate, extensions: pgliteExtensions });
  return wrapPglite(client);
}

async function copyPostgresTemplate(
  { adminUrl, templateName, prefix }: Extract<TestDbTemplate, { kind: "postgres" }>,
  poolSize: number,
): Promise<DbHandle> {
  const name = `${prefix}_${crypto.randomBytes(5).toString("hex")}`;
  await runAdminQuery(adminUrl, `create database "${name}" template "${templateName}"`);
  const handle = connectPostgres(withDatabase(adminUrl, name), poolSize);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await runAdminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

/** Rows of a raw SQL query, the same shape on both drivers (Db's `execute` is typed `unknown`). */
export async function selectRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as { rows: Row[] };
  return result.rows;
}
