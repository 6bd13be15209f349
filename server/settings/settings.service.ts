import { eq, inArray, like } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { shopSettings } from "#server/db/schema.ts";
import { createCatalogueCache } from "#server/catalog/catalogue-cache.ts";
import { defaultSettings, settingsSchemas, type Settings, type SettingsKey } from "./settings";

/** Reads the given settings; a missing or unreadable value falls back to its default. */
export async function getSettings<K extends SettingsKey>(db: Db, keys: readonly K[]): Promise<Pick<Settings, K>> {
  const rows = await db
    .select()
    .from(shopSettings)
    .where(inArray(shopSettings.key, keys as unknown as string[]));
  const result = {} as Pick<Settings, K>;
  for (const key of keys) {
    const stored = rows.find((row) => row.key === key);
    const parsed = stored ? settingsSchemas[key].safeParse(stored.value) : undefined;
    result[key] = (parsed?.success ? parsed.data : defaultSettings[key]) as Settings[K];
  }
  return result;
}

/** Settings a page shows, kept while `page_content_version` holds (it moves on at the commit of any change to them). */
const shownSettings = createCatalogueCache<Partial<Settings>>({ maxAgeMs: 60_000, maxEntries: 50, watches: "catalogue and page content" });

/**
 * `getSettings` for the pages' loaders: kept between requests (server/catalog/catalogue-cache.ts). Not inside a
 * transaction that writes settings: its own change moves the version only at its commit.
 */
export async function getShownSettings<K extends SettingsKey>(db: Db, keys: readonly K[]): Promise<Pick<Settings, K>> {
  return (await shownSettings.get(db, keys.join(" "), () => getSettings(db, keys))) as Pick<Settings, K>;
}

/** Writes default values for every key that has none yet (first start). */
export async function seedDefaultSettings(db: Db) {
  await db
    .insert(shopSettings)
    .values(Object.entries(defaultSettings).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing();
}

/**
 * Values the shop keeps for itself beside the editable settings (never shown or edited in the back office):
 * kept under their own key, taken back once, dropped by prefix. The key has a colon ("owner-setup:..."): the
 * database then leaves the pages' version alone (migration page_content_drops_sql), as no page shows them.
 */
export async function keepPrivateValue(db: Db, key: string, value: unknown) {
  if (!key.includes(":")) throw new Error(`a private value's key has a colon: ${key}`);
  await db
    .insert(shopSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: shopSettings.key, set: { value, updatedAt: new Date() } });
}

export async function getPrivateValue(db: Db, key: string): Promise<unknown> {
  const [kept] = await db.select({ value: shopSettings.value }).from(shopSettings).where(eq(shopSettings.key, key));
  return kept?.value;
}

/** Removes the value and returns it, in one statement: of two requests taking one key, only one gets it. */
export async function takePrivateValue(db: Db, key: string): Promise<unknown> {
  const [taken] = await db.delete(shopSettings).where(eq(shopSettings.key, key)).returning({ value: shopSettings.value });
  return taken?.value;
}

export async function dropPrivateValues(db: Db, keyPrefix: string) {
  await db.delete(shopSettings).where(like(shopSettings.key, `${keyPrefix}%`));
}
