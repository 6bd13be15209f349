import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, onTestFinished, test } from "vitest";
import { sql } from "drizzle-orm";
import { openPglite } from "./client";

test("the embedded database lets the event loop poll the network between statements", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-pglite-"));
  const handle = await openPglite(dataDir);
  onTestFinished(async () => {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  await handle.ping();

  // Four "pages", each a chain of statements, as under load. A request arriving meanwhile is handled in a
  // later turn of the event loop (like this setImmediate): it must not wait for every chain to end.
  let statementsBeforeTurn: number | null = null;
  let statements = 0;
  setImmediate(() => {
    statementsBeforeTurn = statements;
  });
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 50; i++) {
        await handle.ping();
        statements++;
      }
    }),
  );
  expect(statements).toBe(200);
  expect(statementsBeforeTurn).not.toBeNull();
  expect(statementsBeforeTurn!).toBeLessThan(10);
});

test("the embedded database keeps 16 MB of shared buffers, not PostgreSQL's 128 MB", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-pglite-"));
  const handle = await openPglite(dataDir);
  onTestFinished(async () => {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const rows = await handle.db
    .select({ sharedBuffers: sql<string>`current_setting(name)` })
    .from(sql`pg_settings`)
    .where(sql`name = 'shared_buffers'`);
  expect(rows).toEqual([{ sharedBuffers: "16MB" }]);
});
