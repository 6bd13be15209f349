/**
 * Answers computed from the whole catalogue (the API's product lists: every product in the client form)
 * kept in this process while the catalogue stays the same. The database's `catalogue_version` sequence
 * moves on at the commit of any change to products, their links, categories or brands, by whichever
 * process (migration 0008_catalogue_version), so one cheap read tells whether a kept answer still holds.
 * Stock alone does not move it: an answer is also dropped after `maxAgeMs`, which bounds how old its
 * stock figures (and a just-ended offer) can be.
 */
import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";

type Entry<Value> = { version: string; storedAt: number; value: Promise<Value> };

export type CatalogueCache<Value> = {
  /** The kept answer for `key`, or `compute()`'s (computed once for concurrent callers) when there is none that holds. */
  get: (db: Db, key: string, compute: () => Promise<Value>) => Promise<Value>;
};

/** The catalogue's version: it moves on at the commit of any change to what the catalogue shows. */
export async function readCatalogueVersion(db: Db): Promise<string> {
  const [row] = await db.select({ version: sql<string>`last_value::text` }).from(sql`catalogue_version`);
  return row!.version;
}

export function createCatalogueCache<Value>({ maxAgeMs, maxEntries }: { maxAgeMs: number; maxEntries: number }): CatalogueCache<Value> {
  // One map per database: tests open many databases in one process, each with its own versions.
  const entriesOf = new WeakMap<Db, Map<string, Entry<Value>>>();
  return {
    async get(db, key, compute) {
      const version = await readCatalogueVersion(db);
      let entries = entriesOf.get(db);
      if (!entries) entriesOf.set(db, (entries = new Map<string, Entry<Value>>()));
      const kept = entries.get(key);
      if (kept && kept.version === version && Date.now() - kept.storedAt < maxAgeMs) return kept.value;
      // The version is read before computing: a change committed meanwhile leaves this answer under the old number.
      const value = compute();
      const entry = { version, storedAt: Date.now(), value };
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, entry);
      // A failed computation is not kept: the next request tries again.
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
  };
}
