/**
 * A fresh, migrated database for one integration test (or one test file):
 *
 *   const handle = await createTestDb();
 *   onTestFinished(() => handle.close());
 *
 * A closed database goes back to the template of tests/db.global-setup.ts (its tables emptied) and serves a
 * later test. On PGlite (project "pglite") it loads that template's dump, and a database goes back to the
 * idle ones of the same worker. On PostgreSQL (project "postgres", TEST_DATABASE_URL set) it is a
 * database copied from the migrated template, or one a finished test gave back (renamed `<prefix>_idle_*`
 * meanwhile, so test files in other processes can take it too); one database is never shared by two tests
 * at once, so test files run in parallel without sharing rows.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import { describe, inject, test } from "vitest";
import { connectPostgres, pgliteExtensions, wrapPglite, type Db, type DbHandle } from "#server/db/client.ts";
import { couponOrderEffects } from "#server/coupons/coupon-order-effects.ts";
import { giftCardOrderEffects } from "#server/gift-cards/gift-card-order-effects.ts";
import { loyaltyOrderEffects } from "#server/loyalty/loyalty-order-effects.ts";
import { giftListOrderEffects } from "#server/gift-lists/gift-list-order-effects.ts";
import { wireOrderEffects } from "#server/orders/order-effects.ts";
import { voucherOrderEffects } from "#server/vouchers/voucher-order-effects.ts";
import {
  connectAdmin,
  objectCountSql,
  runAdminQuery,
  withDatabase,
  type RowsQuery,
  type TemplateReset,
  type TestDbTemplate,
} from "./db.global-setup";

const template: TestDbTemplate = inject("testDbTemplate");

// Every suite with a database works on orders as the running shop does (server/http/shop-app.ts wires the same).
wireOrderEffects(giftListOrderEffects, couponOrderEffects, giftCardOrderEffects, loyaltyOrderEffects, voucherOrderEffects);

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
  const handle = template.kind === "pglite" ? await leasePglite(template) : await leasePostgres(template, options.poolSize ?? 10);
  // close() may be called twice (a test's own cleanup and onTestFinished): only the first one acts.
  let closing: Promise<void> | undefined;
  return { ...handle, close: () => (closing ??= handle.close()) };
}

let pgliteTemplate: Promise<Blob> | undefined;
/**
 * Databases back at the template, waiting for the next createTestDb() of this worker: test files share a
 * worker's modules (vitest.config.ts, isolate false), so they outlive a file and end with the worker.
 */
const idlePglites: PGlite[] = [];

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
    await resetToTemplate(
      (text) => client.query(text),
      (text) => client.exec(text),
      template,
    );
    idlePglites.push(client);
  } catch {
    // Not reusable: a fresh copy of the template serves the next test instead.
    if (!client.closed) await client.close();
  }
}

type PostgresTemplate = Extract<TestDbTemplate, { kind: "postgres" }>;

async function leasePostgres(template: PostgresTemplate, poolSize: number): Promise<DbHandle> {
  const name = (await takeIdlePostgres(template)) ?? (await copyPostgresTemplate(template));
  const handle = connectPostgres(withDatabase(template.adminUrl, name), poolSize);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await givePostgresBack(name, template);
    },
  };
}

function databaseName({ prefix }: PostgresTemplate, state: "idle" | "leased") {
  return `${prefix}_${state === "idle" ? "idle_" : ""}${crypto.randomBytes(5).toString("hex")}`;
}

async function copyPostgresTemplate(template: PostgresTemplate) {
  const name = databaseName(template, "leased");
  await runAdminQuery(template.adminUrl, `create database "${name}" template "${template.templateName}"`);
  return name;
}

/** Renaming is the claim: of two processes after one idle database, the second finds it gone and tries the next. */
async function takeIdlePostgres(template: PostgresTemplate) {
  const idle = await runAdminQuery<{ name: string }>(
    template.adminUrl,
    `select datname as name from pg_database where datname like '${template.prefix}\\_idle\\_%'`,
  );
  for (const { name: idleName } of idle) {
    const name = databaseName(template, "leased");
    const taken = await runAdminQuery(template.adminUrl, `alter database "${idleName}" rename to "${name}"`).then(
      () => true,
      () => false,
    );
    if (taken) return name;
  }
  return undefined;
}

/**
 * Back to the template and renamed idle, or dropped when it cannot be (a test changed the schema, or something
 * still holds a connection). Connections a test left open (a second app process's pool) are ended first, as
 * DROP DATABASE ... WITH (FORCE) would.
 */
async function givePostgresBack(name: string, template: PostgresTemplate) {
  try {
    const client = await connectAdmin(withDatabase(template.adminUrl, name));
    try {
      await client.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()");
      await resetToTemplate(
        (text) => client.query(text),
        (text) => client.query(text),
        template,
      );
    } finally {
      await client.end();
    }
    await runAdminQuery(template.adminUrl, `alter database "${name}" rename to "${databaseName(template, "idle")}"`);
  } catch {
    await runAdminQuery(template.adminUrl, `drop database if exists "${name}" with (force)`);
  }
}

async function resetToTemplate(query: RowsQuery, exec: (text: string) => Promise<unknown>, { resetSql, objectCount }: TemplateReset) {
  const [row] = (await query(objectCountSql)).rows as [{ count: number }];
  if (row.count !== objectCount) throw new Error("schema changed");
  await exec(resetSql);
}

/** Rows of a raw SQL query, the same shape on both drivers (Db's `execute` is typed `unknown`). */
export async function selectRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as { rows: Row[] };
  return result.rows;
}
