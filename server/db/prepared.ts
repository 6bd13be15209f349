/**
 * A query asked on nearly every request, built once per database and kept as a prepared statement: drizzle
 * builds its SQL text once, PostgreSQL parses and plans it once per connection (decision 0109).
 * Its parameters are `sql.placeholder(...)`s, given to `execute`.
 */
import type { Db } from "./client";

export function preparedPerDatabase<Query>(prepare: (db: Db) => Query): (db: Db) => Query {
  const kept = new WeakMap<Db, Query>();
  return (db) => {
    let query = kept.get(db);
    if (!query) kept.set(db, (query = prepare(db)));
    return query;
  };
}
