/**
 * What of `page_content_version`'s moves a kept visitor's page must follow (docs/decisions/0093-orders-drop-their-pages.md).
 * The sequence moves once per changed stock row, settings row, exchange rate or price-history row, at the
 * commit. A move the process can explain by the stock ledger's movement rows drops only the pages of the
 * products whose stock moved and of the bundles they are parts of, or every page when a variant's availability
 * (stock above zero, or above what a bundle holds of it) flipped; a move
 * it cannot explain (settings, rates, price history, a movement row not seen) drops every page, once it has
 * stayed unexplained for `settleMs` (the commit may not be visible yet). Meanwhile no page is given or kept.
 */
import { and, eq, gt, ne, sql, type SQL } from "drizzle-orm";
import { settleMs } from "#server/catalog/catalogue-cache.ts";
import type { Db } from "#server/db/client.ts";
import { productVariants, stockMovements } from "#server/db/schema.ts";

/** A movement row older than this is taken as committed: one committing later is not seen, and drops every page. */
const movementCommitMs = 60_000;

type WatchState = {
  /** How many of `page_content_version`'s moves are explained or answered by dropping every page. */
  accounted: bigint;
  /** Movement rows above `floor` already explained, with when. */
  floor: number;
  seen: Map<number, number>;
  /** When the moves past `accounted` were first found unexplained; null when none are. */
  unexplainedSince: number | null;
  /** Moves on when every page drops; `dropsOf` per product when that product's pages do. */
  everyPage: number;
  productDrops: Map<number, number>;
  drops: number;
  current: Promise<void> | null;
  next: Promise<void> | null;
};

export type ContentState = {
  /** The part of a page's versions that depends on the page content, for the page at `pathname`. */
  versionOf: (pathname: string) => string;
  /** False while a move is unexplained: no kept page is given, none is kept. */
  explained: boolean;
};

const states = new WeakMap<Db, Promise<WatchState>>();

/** The product a kept path shows alone (its page, its `.data`, its quick view), in either language. */
export function productOfPath(pathname: string): number | null {
  const match = /^(?:\/en)?\/product\/(\d+)(?:\/quick-view)?(?:\.data)?$/.exec(pathname);
  const id = match ? Number(match[1]) : null;
  // Product ids are PostgreSQL integers: a longer number names no product (its page is the 404) and never reaches a query.
  return id !== null && id <= 2_147_483_647 ? id : null;
}

/** The state of the page content as of `pageContent`, the sequence's moves read after the request arrived. */
export async function readContentState(db: Db, pageContent: string): Promise<ContentState> {
  let started = states.get(db);
  if (!started) {
    started = startWatching(db);
    states.set(db, started);
    // A failed start is tried again by the next request.
    started.catch(() => states.delete(db));
  }
  const state = await started;
  const version = BigInt(pageContent);
  if (version > state.accounted || state.unexplainedSince !== null) await checkShared(db, state);
  const explained = state.unexplainedSince === null && version <= state.accounted;
  const { everyPage, productDrops } = state;
  return {
    explained,
    versionOf: (pathname) => {
      const productId = productOfPath(pathname);
      return productId === null ? `${everyPage}` : `${everyPage}.${productDrops.get(productId) ?? 0}`;
    },
  };
}

async function startWatching(db: Db): Promise<WatchState> {
  const [row] = await db
    .select({ moves: movesRead, floor: sql<string | null>`(select max(${stockMovements.id}) from ${stockMovements})::text` })
    .from(sql`page_content_version`);
  return {
    accounted: BigInt(row!.moves),
    floor: Number(row?.floor ?? 0),
    seen: new Map(),
    unexplainedSince: null,
    everyPage: 0,
    productDrops: new Map(),
    drops: 0,
    current: null,
    next: null,
  };
}

/** How many times the sequence was called, as the versions read gives it (a sequence never called reads 1, as after its first call). */
const movesRead = sql<string>`(case when is_called then last_value else last_value - 1 end)::text`;

/** `what` of the bundle parts the moved variant is (their bundles' ids, how many of it each holds), as an array. */
function ofBundlesHolding(what: SQL) {
  return sql<
    number[]
  >`array(select distinct ${what} from bundle_option_parts o join bundle_parts bp on bp.id = o.bundle_part_id where o.part_variant_id = ${stockMovements.variantId})`;
}

/** One check at a time: a caller arriving during one waits for the next, which reads what was committed before it asked. */
function checkShared(db: Db, state: WatchState): Promise<void> {
  if (!state.current) {
    state.current = checkMoves(db, state).finally(() => {
      state.current = null;
    });
    return state.current;
  }
  state.next ??= state.current
    .catch(() => undefined)
    .then(() => {
      state.next = null;
      return checkShared(db, state);
    });
  return state.next;
}

async function checkMoves(db: Db, state: WatchState): Promise<void> {
  // The version and the rows in one statement: every row it sees committed before it, so its move is counted.
  const rows = await db
    .select({
      moves: sql<string>`moved.moves`,
      id: stockMovements.id,
      variantId: stockMovements.variantId,
      delta: stockMovements.delta,
      productId: productVariants.productId,
      stock: productVariants.stock,
      // The bundles made with this variant, and how many of it each holds (docs/decisions/0100-bundles.md).
      bundleIds: ofBundlesHolding(sql`bp.bundle_product_id`),
      perBundle: ofBundlesHolding(sql`bp.quantity`),
    })
    .from(sql`(select ${movesRead} as moves from page_content_version) as moved`)
    .leftJoin(stockMovements, and(gt(stockMovements.id, state.floor), ne(stockMovements.delta, 0)))
    .leftJoin(productVariants, eq(productVariants.id, stockMovements.variantId));
  const now = Date.now();
  const fresh = rows.filter((row) => row.id !== null && !state.seen.has(row.id));
  const movesNow = BigInt(rows[0]!.moves);
  const moves = movesNow - state.accounted;
  if (moves <= 0n) return;
  if (BigInt(fresh.length) !== moves) {
    state.unexplainedSince ??= now;
    if (now - state.unexplainedSince < settleMs) return;
    // Settings, rates or price history changed, or a movement row was not seen: every page drops.
    state.everyPage += 1;
  } else if (fresh.some((row) => row.variantId === null || row.stock === null) || availabilityFlipped(fresh)) {
    // A variant sold out or back: listings and other products' pages show it.
    state.everyPage += 1;
  } else {
    // A part's bundles show what it allows: their pages drop with the part's.
    for (const row of fresh) {
      for (const productId of [row.productId!, ...(row.bundleIds ?? [])]) state.productDrops.set(productId, (state.drops += 1));
    }
  }
  for (const row of fresh) state.seen.set(row.id!, now);
  state.accounted = movesNow;
  state.unexplainedSince = null;
  // Rows explained long ago are below the floor from now on.
  for (const [id, explainedAt] of state.seen) {
    if (now - explainedAt < movementCommitMs) continue;
    state.floor = Math.max(state.floor, id);
  }
  for (const id of state.seen.keys()) if (id <= state.floor) state.seen.delete(id);
}

type MovementRow = { id: number | null; variantId: number | null; delta: number | null; stock: number | null; perBundle: number[] | null };

/**
 * Whether a variant's stock crossed zero along its movement rows: from what it was before them (its stock now
 * less their deltas) through each. A variant's rows are written under its row lock, so their ids follow its commits.
 * A bundle holding n of it sells out or comes back when the stock crosses n: those count as flips too.
 */
function availabilityFlipped(rows: MovementRow[]): boolean {
  const byVariant = new Map<number, MovementRow[]>();
  for (const row of rows) byVariant.set(row.variantId!, [...(byVariant.get(row.variantId!) ?? []), row]);
  for (const variantRows of byVariant.values()) {
    variantRows.sort((a, b) => a.id! - b.id!);
    const before = variantRows[0]!.stock! - variantRows.reduce((sum, row) => sum + row.delta!, 0);
    for (const threshold of new Set([1, ...(variantRows[0]!.perBundle ?? [])])) {
      let stock = before;
      const wasAvailable = stock >= threshold;
      for (const row of variantRows) {
        stock += row.delta!;
        if (stock >= threshold !== wasAvailable) return true;
      }
    }
  }
  return false;
}
