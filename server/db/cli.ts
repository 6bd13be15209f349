/**
 * `npm run db:migrate` and `npm run db:seed`: the start-up steps without starting the server
 * (stop the shop first when it runs on the embedded database: one process per data folder).
 */
import { ConfigError, readEnv } from "#server/env.ts";
import { createLogger } from "#server/log.ts";
import { DatabaseLockedError } from "./pglite-lock.ts";
import { openShopDatabase } from "#server/http/start.ts";

const command = process.argv[2];
if (command !== "migrate" && command !== "seed") {
  console.error("usage: tsx server/db/cli.ts migrate|seed");
  process.exit(2);
}
try {
  const env = readEnv();
  // Opening the database migrates it; "seed" also seeds an empty one.
  const handle = await openShopDatabase({ ...env, SEED_SAMPLE_DATA: command === "seed" }, createLogger(env.LOG_LEVEL, env.LOG_FORMAT));
  await handle.close();
  console.log(command === "seed" ? "Database migrated and seeded." : "Database migrated.");
} catch (error) {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
