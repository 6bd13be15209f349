/**
 * Stands in for the running shop on the embedded database in server/ops/backup.test.ts: opens the data
 * folder given as argument (holding its lock), fills it, answers backup requests as the shop does
 * (server/http/app.ts wires the same serveBackupRequests), prints "ready" and waits to be stopped.
 */
import path from "node:path";
import { openPglite } from "#server/db/client.ts";
import { migrateDatabase } from "#server/db/migrate.ts";
import { linkSecretOf, serveBackupRequests } from "#server/ops/backup.ts";
import { fillShop } from "#tests/fixtures/ops.fixtures.ts";

const dataDir = process.argv[2]!;
const mediaDir = path.join(dataDir, "media");
const handle = await openPglite(dataDir);
await migrateDatabase(handle);
await fillShop(handle.db, mediaDir);
serveBackupRequests(handle, { dataDir, mediaDir, linkSecret: linkSecretOf({ DATA_DIR: dataDir }) }, { info: () => {} });
process.on("SIGTERM", () => {
  void handle.close().then(() => process.exit(0));
});
console.log("ready");
