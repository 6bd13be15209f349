import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, onTestFinished, test } from "vitest";
import { connectPostgres, openPglite, type DbHandle } from "#server/db/client.ts";
import { migrateDatabase } from "#server/db/migrate.ts";
import { isOnPostgres, testOnPostgres } from "#tests/db.ts";
import { runAdminQuery, withDatabase } from "#tests/db.global-setup.ts";
import { insertOrder } from "#tests/fixtures/accounts.fixtures.ts";
import { contentOf, fillShop, samplePicture, samplePicturePath } from "#tests/fixtures/ops.fixtures.ts";
import { startInProcessShop } from "#tests/security/in-process-shop.ts";
import { outboxEmails } from "#server/db/schema.ts";
import { queueOrderMail } from "#server/orders/order-emails.ts";
import type { Db } from "#server/db/client.ts";
import { linkSecretOf, backupPglite, backupPostgres, restorePglite, restorePostgres } from "./backup";

const run = promisify(execFile);
function tempFolder(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const publicUrl = "http://shop.test";

/** A guest's order confirmation, queued as checkout queues it: the order page's link it carries. */
async function mailedOrderLink(db: Db, secret: string): Promise<string> {
  const order = await insertOrder(db, null);
  await queueOrderMail(db, { orderId: order.id, kind: "confirmation", links: { publicUrl, secret } });
  const [mail] = await db.select({ text: outboxEmails.textBody }).from(outboxEmails);
  // The order page's link, not the withdrawal function's (`/ordine/:id/recesso`) the mail carries too.
  return mail!.text.match(/https?:\/\/\S+\/ordine\/\S+/g)!.find((link) => !new URL(link).pathname.endsWith("/recesso"))!;
}

/** The link opened over HTTP on a shop serving the restored data folder, its secret as the shop would find it. */
async function openOnRestoredShop(database: DbHandle, dataDir: string, link: string) {
  const shop = await startInProcessShop({ publicUrl, database, env: { DATA_DIR: dataDir, AUTH_SECRET: "" } });
  try {
    const url = new URL(link);
    return await shop.request(`${url.pathname}${url.search}`);
  } finally {
    await shop.close();
  }
}

test.skipIf(isOnPostgres)(
  "the embedded database: backed up while open, restored into a new folder with every order, customer and picture, and the links mailed before",
  { timeout: 240_000 },
  async () => {
    const dataDir = tempFolder("shop-data");
    const mediaDir = path.join(dataDir, "media");
    const shop = await openPglite(dataDir);
    onTestFinished(() => shop.close());
    await migrateDatabase(shop);
    await fillShop(shop.db, mediaDir);
    // The secret `npm start` generates into the data folder, and a mail with a link signed by it.
    const secret = linkSecretOf({ DATA_DIR: dataDir });
    expect(secret.kept).toBe("data-folder");
    const orderLink = await mailedOrderLink(shop.db, secret.value);
    const before = await contentOf(shop.db);

    const out = path.join(tempFolder("shop-backups"), "shop.tar.gz");
    const manifest = await backupPglite(shop, mediaDir, out, secret);
    expect(manifest).toMatchObject({ format: 1, database: "pglite" });
    expect(manifest.migration).toMatch(/^[0-9a-f]{64}$/);
    // The shop goes on working after the backup; what comes later is not in it.
    await insertOrder(shop.db, "bruno");

    // Restored where AUTH_SECRET is another secret, every mailed link would answer 404: refused, nothing written.
    const refusedDir = path.join(tempFolder("shop-refused"), "data");
    await expect(restorePglite(out, refusedDir, { authSecret: "another-secret-of-at-least-32-characters" })).rejects.toThrow(/Unset AUTH_SECRET/);
    expect(fs.existsSync(refusedDir)).toBe(false);

    const restoredDir = path.join(tempFolder("shop-restored"), "data");
    await restorePglite(out, restoredDir);
    const restored = await openPglite(restoredDir);
    onTestFinished(() => restored.close());
    expect(await contentOf(restored.db)).toEqual(before);
    expect(fs.readFileSync(path.join(restoredDir, "media", samplePicturePath)).equals(samplePicture)).toBe(true);
    // A restore never overwrites a shop.
    await expect(restorePglite(out, restoredDir)).rejects.toThrow(/already holds a database/);

    // The confirmation mailed before the backup opens its order on the restored shop; with a secret of its own it would not.
    const opened = await openOnRestoredShop(restored, restoredDir, orderLink);
    expect(opened.status, opened.body.slice(0, 300)).toBe(200);
    expect(opened.body).toContain("Passeggino Trio");
    const withOwnSecret = await openOnRestoredShop(restored, tempFolder("shop-other-secret"), orderLink);
    expect(withOwnSecret.status).toBe(404);
  },
);

test.skipIf(isOnPostgres)("`npm run backup` while the shop runs: the shop's own process writes the file", { timeout: 60_000 }, async () => {
  const dataDir = tempFolder("shop-data");
  const out = path.join(tempFolder("shop-backups"), "live.tar.gz");
  // A process holding the embedded database as the shop does (tests/ops/running-shop.ts answers SIGUSR2).
  const shopProcess = await startRunningShop(dataDir);
  onTestFinished(() => {
    shopProcess.kill();
  });
  const cli = await run("node_modules/.bin/tsx", ["server/ops/backup-cli.ts", "backup", "--out", out], {
    env: { ...process.env, DATA_DIR: dataDir, MEDIA_DIR: path.join(dataDir, "media"), DATABASE_URL: "", NODE_ENV: "development" },
  });
  expect(cli.stdout).toContain(`Backup of the embedded database and pictures written to ${out}`);

  shopProcess.kill();
  await new Promise((resolve) => shopProcess.once("exit", resolve));
  const restoredDir = path.join(tempFolder("shop-restored"), "data");
  await restorePglite(out, restoredDir);
  const restored = await openPglite(restoredDir);
  onTestFinished(() => restored.close());
  expect((await contentOf(restored.db)).orders).toHaveLength(3);
  expect(fs.existsSync(path.join(restoredDir, "media", samplePicturePath))).toBe(true);
  // The secret the running shop generated came along: its links open on the restored one.
  expect(fs.readFileSync(path.join(restoredDir, "auth-secret"), "utf8")).toBe(fs.readFileSync(path.join(dataDir, "auth-secret"), "utf8"));
});

async function startRunningShop(dataDir: string) {
  const { spawn } = await import("node:child_process");
  const child = spawn("node_modules/.bin/tsx", ["tests/ops/running-shop.ts", dataDir], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the running shop stopped (${code})`)));
  });
  return child;
}

testOnPostgres(
  "PostgreSQL: pg_dump while the shop runs, pg_restore into a new database with every order, customer and picture",
  { timeout: 60_000 },
  async () => {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const suffix = crypto.randomBytes(4).toString("hex");
    const source = `shop_backup_src_${suffix}`;
    const target = `shop_backup_dst_${suffix}`;
    const handles: DbHandle[] = [];
    onTestFinished(async () => {
      await Promise.all(handles.map((handle) => handle.close()));
      for (const name of [source, target]) await runAdminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
    });
    await runAdminQuery(adminUrl, `create database "${source}"`);
    const shop = connectPostgres(withDatabase(adminUrl, source), 2);
    handles.push(shop);
    await migrateDatabase(shop);
    const mediaDir = path.join(tempFolder("shop-media"), "media");
    await fillShop(shop.db, mediaDir);
    const before = await contentOf(shop.db);

    const out = path.join(tempFolder("shop-backups"), "shop.tar.gz");
    // The environment's AUTH_SECRET signs the links: the backup names it (a check, not the secret) and the restore asks for it.
    const secret = linkSecretOf({ AUTH_SECRET: "the-shops-own-secret-of-at-least-32-characters", DATA_DIR: tempFolder("shop-data") });
    expect(await backupPostgres(withDatabase(adminUrl, source), mediaDir, out, secret)).toMatchObject({
      format: 1,
      database: "postgres",
      linkSecret: { kept: "environment" },
    });

    await runAdminQuery(adminUrl, `create database "${target}"`);
    const restoredMedia = path.join(tempFolder("shop-media-restored"), "media");
    const restoredData = tempFolder("shop-data-restored");
    await expect(
      restorePostgres(out, withDatabase(adminUrl, target), restoredMedia, { dataDir: restoredData, authSecret: undefined }),
    ).rejects.toThrow(/AUTH_SECRET is not set here/);
    await restorePostgres(out, withDatabase(adminUrl, target), restoredMedia, { dataDir: restoredData, authSecret: secret.value });
    const restored = connectPostgres(withDatabase(adminUrl, target), 2);
    handles.push(restored);
    expect(await contentOf(restored.db)).toEqual(before);
    // Order numbers go on from where they were: the identity's position came back too.
    expect((await insertOrder(restored.db, "anna")).number).toBe(before.orders.at(-1)!.number + 1);
    expect(fs.readFileSync(path.join(restoredMedia, samplePicturePath)).equals(samplePicture)).toBe(true);
  },
);
