/**
 * Vitest globalSetup: migrates ONE template database per test run, so that each
 * createTestDb() (tests/db.ts) only has to copy it, and says how a used copy goes back to it (resetSql).
 * - project "pglite": an in-memory PGlite, migrated, dumped to a tarball in a temp folder.
 * - project "postgres": a database `<prefix>_template` on TEST_DATABASE_URL's server; copies are
 *   CREATE DATABASE ... TEMPLATE it, reset and reused by later tests, and dropped at the end of the run.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { connectPostgres, pgliteExtensions, wrapPglite } from "#server/db/client.ts";
import { isProcessAlive } from "#server/db/pglite-lock.ts";
import { migrateDatabase } from "#server/db/migrate.ts";

export type TestDbTemplate =
  | ({ kind: "pglite"; dumpFile: string } & TemplateReset)
  | ({ kind: "postgres"; adminUrl: string; templateName: string; prefix: string } & TemplateReset);

/** How a used copy goes back to the template, and the object count that tells it still can (tests/db.ts). */
export type TemplateReset = { resetSql: string; objectCount: number };

declare module "vitest" {
  interface ProvidedContext {
    testDbTemplate: TestDbTemplate;
  }
}

export default async function setupTestDbTemplate(project: TestProject) {
  if (project.name === "postgres") return setupPostgresTemplate(project);
  return setupPgliteTemplate(project);
}

async function setupPgliteTemplate(project: TestProject) {
  const client = await PGlite.create({ extensions: pgliteExtensions });
  const handle = wrapPglite(client);
  await migrateDatabase(handle);
  const { resetSql, objectCount } = await templateReset((text) => client.query(text));
  const dump = await client.dumpDataDir("none");
  await handle.close();

  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-test-pglite-"));
  const dumpFile = path.join(folder, "template.tar");
  fs.writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  project.provide("testDbTemplate", { kind: "pglite", dumpFile, resetSql, objectCount });
  return () => fs.rmSync(folder, { recursive: true, force: true });
}

/** Object count of a database: a test that created or dropped a table, function or index changes it. */
export const objectCountSql = "select count(*)::int as count from pg_class";

/** A raw query on either driver (a pg.Client or a PGlite), rows untyped. */
export type RowsQuery = (text: string) => Promise<{ rows: unknown[] }>;

/**
 * The SQL that brings a used test database back to the migrated template (tests/db.ts reuses databases:
 * loading PGlite's template takes 1.5-3 s, and on PostgreSQL a copy plus its DROP DATABASE, which forces a
 * checkpoint, took 1.3-6 s a test against 0.1-0.4 s for this): every row of the public schema deleted,
 * foreign keys and triggers off meanwhile (every table empties, so no reference is left dangling; TRUNCATE
 * makes new files for each table and index and took 0.75-2.8 s on PostgreSQL), every sequence back where the
 * template left it, session settings reset. Migrations leave the tables empty; a template with rows would
 * need them put back, so that is refused here.
 */
async function templateReset(untypedQuery: RowsQuery): Promise<TemplateReset> {
  const query = async <Row>(text: string) => (await untypedQuery(text)) as { rows: Row[] };
  const tables = (await query<{ name: string }>("select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'"))
    .rows;
  for (const { name } of tables) {
    const { rows } = await query<{ filled: boolean }>(`select exists (select 1 from ${name}) as filled`);
    if (rows[0]!.filled) throw new Error(`the migrated template has rows in ${name}: tests/db.ts cannot reset to it by emptying the tables`);
  }
  const sequences = (
    await query<{ statement: string }>(
      "select format('select setval(%L, %s, %L);', format('%I.%I', schemaname, sequencename), coalesce(last_value, start_value), last_value is not null) as statement from pg_sequences where schemaname = 'public'",
    )
  ).rows;
  const { count } = (await query<{ count: number }>(objectCountSql)).rows[0]!;
  const resetSql = [
    "begin;",
    "set local session_replication_role = replica;",
    ...tables.map((table) => `delete from ${table.name};`),
    ...sequences.map((row) => row.statement),
    "commit;",
    "reset all;",
  ].join("\n");
  return { resetSql, objectCount: count };
}

async function setupPostgresTemplate(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("The postgres test project needs TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test");

  await dropAbandonedDatabases(adminUrl);
  const prefix = `${databasePrefix}_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
  const templateName = `${prefix}_template`;
  await runAdminQuery(adminUrl, `create database "${templateName}"`);
  const handle = connectPostgres(withDatabase(adminUrl, templateName), 1);
  try {
    await migrateDatabase(handle);
  } finally {
    await handle.close();
  }
  const client = await connectAdmin(withDatabase(adminUrl, templateName));
  let reset: TemplateReset;
  try {
    reset = await templateReset((text) => client.query(text));
  } finally {
    // A database can only serve as a template while nobody is connected to it.
    await client.end();
  }
  project.provide("testDbTemplate", { kind: "postgres", adminUrl, templateName, prefix, ...reset });
  return () => dropDatabases(adminUrl, (name) => name.startsWith(`${prefix}_`));
}

/** Names look like test_<host>_<pid>_<random>[_...]: the host part keeps machines sharing one server apart. */
const databasePrefix = `test_${crypto.createHash("sha1").update(os.hostname()).digest("hex").slice(0, 6)}`;

/** Drops databases left by earlier runs on this machine whose process died before its teardown. */
async function dropAbandonedDatabases(adminUrl: string) {
  const pattern = new RegExp(`^${databasePrefix}_(\\d+)_[0-9a-f]{6}_`);
  await dropDatabases(adminUrl, (name) => {
    const pid = Number(pattern.exec(name)?.[1]);
    return Boolean(pid) && !isProcessAlive(pid);
  });
}

async function dropDatabases(adminUrl: string, shouldDrop: (name: string) => boolean) {
  const client = await connectAdmin(adminUrl);
  try {
    const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like 'test\\_%'");
    for (const { datname } of rows.filter((row) => shouldDrop(row.datname))) {
      await client.query(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await client.end();
  }
}

/** One statement on its own connection; its rows, untyped. */
export async function runAdminQuery<Row = unknown>(adminUrl: string, sql: string): Promise<Row[]> {
  const client = await connectAdmin(adminUrl);
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** A single connection that says which server it could not reach; the caller ends it. */
export async function connectAdmin(adminUrl: string) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL at TEST_DATABASE_URL (${redact(adminUrl)}) is unreachable: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return client;
}

export function withDatabase(url: string, database: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function redact(url: string) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
