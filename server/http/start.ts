import { connectPostgres, openPglite, type DbHandle } from "#server/db/client.ts";
import { migrateDatabase } from "#server/db/migrate.ts";
import { writePlaceholderImage } from "#server/catalog/images.ts";
import { mediaStoreOf } from "#server/media/media-store.ts";
import { seedSampleCatalogue } from "#server/db/seed.ts";
import type { Env } from "#server/env.ts";
import { seedDefaultSettings } from "#server/settings/settings.service.ts";
import type { Logger } from "#server/log.ts";

/** Opens the database the environment names, applies migrations and seeds a first start. */
export async function openShopDatabase(env: Env, log: Logger): Promise<DbHandle> {
  const startedAt = performance.now();
  const handle = env.DATABASE_URL ? connectPostgres(env.DATABASE_URL, env.DATABASE_POOL_SIZE) : await openPglite(env.DATA_DIR);
  try {
    await handle.ping();
  } catch (error) {
    // The unreachable database is the error to report; closing what never connected may fail as well.
    await handle.close().catch(() => {});
    throw new DatabaseUnreachableError(`Cannot reach the database: ${(error as Error).message}`);
  }
  log.info({ database: handle.kind }, "database open; applying migrations");
  await migrateDatabase(handle);
  await seedDefaultSettings(handle.db);
  // Shown wherever a product or colour has no picture, so it must exist even without sample data.
  await writePlaceholderImage(mediaStoreOf(env));
  if (env.SEED_SAMPLE_DATA) {
    const seeded = await seedSampleCatalogue(handle.db, { log: (line) => log.info(line) });
    if (seeded.inserted) log.info({ products: seeded.products }, "sample catalogue seeded");
  }
  log.info({ ms: Math.round(performance.now() - startedAt) }, "database ready");
  return handle;
}

export class DatabaseUnreachableError extends Error {
  override name = "DatabaseUnreachableError";
}
