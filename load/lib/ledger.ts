/**
 * What the database says after a part, in SQL: stock never below zero, never more sold than there
 * was, stock equal to what was there minus what orders hold, every order whole (lines, stock
 * movements matching them, status history), and every checkout answered with success there once.
 */
import type pg from "pg";
import type { CheckoutAttempt } from "./customers";

export type Ledger = {
  negativeStock: number;
  /** Variants of which orders hold more units than there were. */
  oversells: number;
  /** Variants whose stock is not what was there minus what orders hold. */
  stockMismatches: number;
  /** Orders without lines, without status history, or whose stock movements do not match their lines. */
  halfWritten: number;
  /** Checkouts answered with success whose order is not there (or is another order). */
  lost: number;
  /** More than one order for one checkout form. */
  doubled: number;
};

export async function readLedger(sql: pg.Pool, initialStock: Map<number, number>, attempts: readonly CheckoutAttempt[]): Promise<Ledger> {
  const variantIds = [...initialStock.keys()];
  const [negative, sold, halfWritten, byKey] = await Promise.all([
    sql.query<{ n: string }>("select count(*) as n from product_variants where stock < 0"),
    sql.query<{ id: number; stock: number; sold: string }>(
      `select v.id, v.stock, coalesce((select sum(l.quantity) from order_lines l where l.variant_id = v.id), 0) as sold
       from product_variants v where v.id = any($1)`,
      [variantIds],
    ),
    sql.query<{ n: string }>(`
      select count(*) as n from orders o
      where not exists (select 1 from order_lines l where l.order_id = o.id)
         or not exists (select 1 from order_status_history h where h.order_id = o.id)
         or (select coalesce(sum(l.quantity), 0) from order_lines l where l.order_id = o.id)
            <> -(select coalesce(sum(m.delta), 0) from stock_movements m where m.order_id = o.id)`),
    sql.query<{ idempotency_key: string; ids: string[] }>(
      "select idempotency_key, array_agg(id::text) as ids from orders where idempotency_key = any($1) group by idempotency_key",
      [attempts.map((attempt) => attempt.key)],
    ),
  ]);
  let oversells = 0;
  let stockMismatches = 0;
  for (const row of sold.rows) {
    const initial = initialStock.get(row.id)!;
    if (Number(row.sold) > initial) oversells += 1;
    if (initial - Number(row.sold) !== row.stock) stockMismatches += 1;
  }
  const ordersByKey = new Map(byKey.rows.map((row) => [row.idempotency_key, row.ids]));
  let lost = 0;
  let doubled = 0;
  for (const attempt of attempts) {
    const ids = ordersByKey.get(attempt.key) ?? [];
    if (ids.length > 1) doubled += 1;
    if (attempt.state === "placed" && (ids.length === 0 || (attempt.orderId !== null && !ids.includes(attempt.orderId)))) lost += 1;
  }
  return {
    negativeStock: Number(negative.rows[0]!.n),
    oversells,
    stockMismatches,
    halfWritten: Number(halfWritten.rows[0]!.n),
    lost,
    doubled,
  };
}
