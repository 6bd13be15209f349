/**
 * Answers computed from the catalogue kept in this process while what they show stays the same. Two database
 * sequences move on at the commit of a change, by whichever process: `catalogue_version` (products, their
 * links, images, variants, reviews, categories, brands; migration 0008) and `page_content_version` (stock,
 * settings, exchange rates, price history; migration 0022). One cheap read of both tells whether a kept answer
 * still holds. An answer is also dropped after `maxAgeMs`, which bounds how old it can be when only the
 * catalogue's version is watched (the API's lists leave stock out of it).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";

export type ContentVersions = {
  catalogue: string;
  pageContent: string;
  /** When this process first read the current number of each (ms since the epoch; 0 for the first numbers it read). */
  catalogueSeenAt: number;
  pageContentSeenAt: number;
};

/**
 * The triggers move a version just before the commit is written, so another connection can read the new
 * number a moment before it can read the change: answers computed in the first second after a process sees a
 * version move are given, not kept (so are kept pages, decision 0074).
 */
export const settleMs = 1_000;

/**
 * Both versions in one query, built and planned once per database: every request of a page asks it. A version
 * is how many times its sequence was called: `last_value` alone reads 1 both before and after the first call.
 */
const prepareVersionsQuery = (db: Db) =>
  db
    .select({
      catalogue: sql<string>`(case when is_called then last_value else last_value - 1 end)::text`,
      pageContent: sql<string>`(select case when is_called then last_value else last_value - 1 end from page_content_version)::text`,
    })
    .from(sql`catalogue_version`)
    .prepare("content_versions");

type SharedRead = {
  query: ReturnType<typeof prepareVersionsQuery>;
  current: Promise<ContentVersions> | null;
  next: Promise<ContentVersions> | null;
  last: ContentVersions | null;
};

/** Both versions in one query, with when this process first saw each. */
async function readContentVersionsNow(state: SharedRead): Promise<ContentVersions> {
  const [row] = await state.query.execute();
  const { catalogue, pageContent } = row!;
  const last = state.last;
  const now = Date.now();
  const seenAt = (value: string, lastValue: string | undefined, lastSeenAt: number | undefined) =>
    lastValue === undefined ? 0 : value === lastValue ? lastSeenAt! : now;
  const versions = {
    catalogue,
    pageContent,
    catalogueSeenAt: seenAt(catalogue, last?.catalogue, last?.catalogueSeenAt),
    pageContentSeenAt: seenAt(pageContent, last?.pageContent, last?.pageContentSeenAt),
  };
  state.last = versions;
  return versions;
}

const sharedReads = new WeakMap<Db, SharedRead>();

/**
 * The versions, read one query at a time per database: a caller arriving while a read is under way waits for
 * the next one, which starts when that one ends. Every caller gets versions read after it asked (a change
 * committed before is seen), and a burst of requests costs two reads, not a connection each.
 */
export function readContentVersions(db: Db): Promise<ContentVersions> {
  const ofThisRequest = versionsOfRequest.getStore();
  if (!ofThisRequest) return readSharedVersions(db);
  let versions = ofThisRequest.get(db);
  if (!versions) ofThisRequest.set(db, (versions = readSharedVersions(db)));
  return versions;
}

/** The versions each database had when a request that writes nothing first asked (see `readingVersionsOnce`). */
const versionsOfRequest = new AsyncLocalStorage<Map<Db, Promise<ContentVersions>>>();

/**
 * Runs `handle` (a request that writes nothing: a GET) with one read of the versions for all its loaders,
 * which each asked for them in turn: the page shows the catalogue as it was when the request first asked.
 * Never around an action, whose loaders must see what it committed.
 */
export function readingVersionsOnce<Result>(handle: () => Result): Result {
  return versionsOfRequest.run(new Map(), handle);
}

function readSharedVersions(db: Db): Promise<ContentVersions> {
  let shared = sharedReads.get(db);
  if (!shared) sharedReads.set(db, (shared = { query: prepareVersionsQuery(db), current: null, next: null, last: null }));
  const state = shared;
  if (!state.current) {
    state.current = readContentVersionsNow(state).finally(() => {
      state.current = null;
    });
    return state.current;
  }
  state.next ??= state.current
    .catch(() => undefined)
    .then(() => {
      state.next = null;
      return readSharedVersions(db);
    });
  return state.next;
}

/** The catalogue's version: it moves on at the commit of any change to what the catalogue shows. */
export async function readCatalogueVersion(db: Db): Promise<string> {
  return (await readContentVersions(db)).catalogue;
}

/** Which versions an answer depends on: the catalogue's alone, or also the page content's (stock, settings). */
export type Watched = "catalogue" | "catalogue and page content";

/**
 * The watched versions as one key, and whether an answer computed now may be kept: not in the `settleMs`
 * after this process first saw one of them move.
 */
export async function readWatchedVersion(db: Db, watches: Watched): Promise<{ version: string; settled: boolean }> {
  const versions = await readContentVersions(db);
  const seenAt = watches === "catalogue" ? versions.catalogueSeenAt : Math.max(versions.catalogueSeenAt, versions.pageContentSeenAt);
  return {
    version: watches === "catalogue" ? versions.catalogue : `${versions.catalogue}.${versions.pageContent}`,
    settled: Date.now() - seenAt >= settleMs,
  };
}

type Entry<Value> = { version: string; storedAt: number; value: Promise<Value> };

export type CatalogueCache<Value> = {
  /** The kept answer for `key`, or `compute()`'s (computed once for concurrent callers) when there is none that holds. */
  get: (db: Db, key: string, compute: () => Promise<Value>) => Promise<Value>;
  /**
   * The kept answers for `keys`, in their order; those with none that holds come from one call of
   * `computeMissing(missingKeys)`, whose map may leave a key out (an answer of undefined, kept as well).
   */
  getMany: (db: Db, keys: readonly string[], computeMissing: (missing: string[]) => Promise<Map<string, Value>>) => Promise<(Value | undefined)[]>;
};

/**
 * A cache of answers per key. `watches` says which versions an answer depends on: "catalogue" alone, or
 * "catalogue and page content" for answers that show stock or settings too.
 */
export function createCatalogueCache<Value>({
  maxAgeMs,
  maxEntries,
  watches = "catalogue",
}: {
  maxAgeMs: number;
  maxEntries: number;
  watches?: Watched;
}): CatalogueCache<Value> {
  // One map per database: tests open many databases in one process, each with its own versions.
  const entriesOf = new WeakMap<Db, Map<string, Entry<Value | undefined>>>();
  const entriesFor = (db: Db) => {
    let entries = entriesOf.get(db);
    if (!entries) entriesOf.set(db, (entries = new Map<string, Entry<Value | undefined>>()));
    return entries;
  };
  const currentVersion = (db: Db) => readWatchedVersion(db, watches);
  const keptValue = (entries: Map<string, Entry<Value | undefined>>, key: string, version: string) => {
    const kept = entries.get(key);
    return kept && kept.version === version && Date.now() - kept.storedAt < maxAgeMs ? kept.value : null;
  };
  // The version is read before computing: a change committed meanwhile leaves this answer under the old number.
  const keep = <Kept extends Value | undefined>(
    entries: Map<string, Entry<Value | undefined>>,
    key: string,
    { version, settled }: { version: string; settled: boolean },
    value: Promise<Kept>,
  ) => {
    if (!settled) return value;
    const entry = { version, storedAt: Date.now(), value };
    entries.delete(key);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(key, entry);
    // A failed computation is not kept: the next request tries again.
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return value;
  };
  return {
    async get(db, key, compute) {
      const version = await currentVersion(db);
      const entries = entriesFor(db);
      return (keptValue(entries, key, version.version) as Promise<Value> | null) ?? keep(entries, key, version, compute());
    },
    async getMany(db, keys, computeMissing) {
      const version = await currentVersion(db);
      const entries = entriesFor(db);
      const kept = keys.map((key) => keptValue(entries, key, version.version));
      const missing = keys.filter((_key, index) => kept[index] === null);
      const computed = missing.length > 0 ? computeMissing(missing) : null;
      return Promise.all(
        keys.map(
          (key, index) =>
            kept[index] ??
            keep(
              entries,
              key,
              version,
              computed!.then((answers) => answers.get(key)),
            ),
        ),
      );
    },
  };
}
