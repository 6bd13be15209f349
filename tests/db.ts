/**
 * A fresh, migrated database for one integration test (or one test file):
 *
 *   const handle = await createTestDb();
 *   onTestFinished(() => handle.close());
 *
 * On PGlite (project "pglite") it loads the template dumped once per run by tests/db.global-setup.ts; a
 * closed database goes back to the template (its tables emptied) and serves the next test of the same file.
 * On PostgreSQL (project "postgres", TEST_DATABASE_URL set) it is a new database copied from a migrated
 * template, dropped by close(), so test files run in parallel without sharing rows.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import { afterAll, describe, inject, test } from "vitest";
import { connectPostgres, pgliteExtensions, wrapPglite, type Db, type DbHandle } from "#server/db/client.ts";
import { couponOrderEffects } from "#server/coupons/coupon-order-effects.ts";
import { giftListOrderEffects } from "#server/gift-lists/gift-list-order-effects.ts";
import { wireOrderEffects } from "#server/orders/order-effects.ts";
import { objectCountSql, runAdminQuery, withDatabase, type TestDbTemplate } from "./db.global-setup";

const template: TestDbTemplate = inject("testDbTemplate");

// Every suite with a database works on orders as the running shop does (server/http/shop-app.ts wires the same).
wireOrderEffects(giftListOrderEffects, couponOrderEffects);

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
  const handle = template.kind === "pglite" ? await leasePglite(template) : await copyPostgresTemplate(template, options.poolSize ?? 10);
  // close() may be called twice (a test's own cleanup and onTestFinished): only the first one acts.
  let closing: Promise<void> | undefined;
  return { ...handle, close: () => (closing ??= handle.close()) };
}

let pgliteTemplate: Promise<Blob> | undefined;
/** Databases of this test file back at the template, waiting for the next createTestDb(). */
const idlePglites: PGlite[] = [];
afterAll(async () => {
  await Promise.all(idlePglites.splice(0).map((client) => client.close()));
});

async function leasePglite(template: Extract<TestDbTemplate, { kind: "pglite" }>): Promise<DbHandle> {
  pgliteTemplate ??= fs.promises.readFile(template.dumpFile).then((bytes) => new Blob([bytes]));
  const client = idlePglites.pop() ?? (await PGlite.create({ loadDataDir: await pgliteTemplate, extensions: pgliteExtensions }));
  let closed = false;
  // Work a test left running (a queued mail, a timer) must not write into the next test's database: after
  // close() every call through this test's handle fails, as on a closed PGlite.
  const guarded = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (closed) throw new Error("this test's database is closed");
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const handle = wrapPglite(guarded);
  return {
    ...handle,
    close: async () => {
      closed = true;
      await giveBack(client, template);
    },
  };
}

/** Back to the template and into the idle list, or closed when it cannot be (a test changed the schema). */
async function giveBack(client: PGlite, template: Extract<TestDbTemplate, { kind: "pglite" }>) {
  try {
    if (client.closed) return;
    if (client.isInTransaction()) throw new Error("left inside a transaction");
    await client.exec(template.resetSql);
    const { count } = (await client.query<{ count: number }>(objectCountSql)).rows[0]!;
    if (count !== template.objectCount) throw new Error("schema changed");
    idlePglites.push(client);
  } catch {
    // Not reusable: a fresh copy of the template serves the next test instead.
    if (!client.closed) await client.close();
  }
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
