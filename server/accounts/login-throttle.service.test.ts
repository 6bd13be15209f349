import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { rateLimits } from "#server/db/schema.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { countAttempt, forgetAttempts, takeBackAttempt } from "./login-throttle.service";

const rule = { max: 3, windowMs: 60_000 };

async function openDb(poolSize?: number) {
  const handle = await createTestDb({ poolSize });
  onTestFinished(() => handle.close());
  return handle.db;
}

test("attempts are counted in the database; the one past the limit is refused; a new window starts afresh", async () => {
  const db = await openDb();
  const start = new Date("2026-06-01T10:00:00Z");
  const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
  expect(await countAttempt(db, "k", rule, at(0))).toEqual({ allowed: true });
  expect(await countAttempt(db, "k", rule, at(10))).toEqual({ allowed: true });
  expect(await countAttempt(db, "k", rule, at(20))).toEqual({ allowed: true });
  expect(await countAttempt(db, "k", rule, at(30))).toEqual({ allowed: false, retryAfterMs: 30_000 });
  expect(await countAttempt(db, "other", rule, at(30))).toEqual({ allowed: true });
  expect(await countAttempt(db, "k", rule, at(60))).toEqual({ allowed: true });
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, "k"));
  expect(row).toMatchObject({ count: 1, lastRequest: at(60).getTime() });
});

test("a success can forget an account's count or give an address one attempt back", async () => {
  const db = await openDb();
  for (let i = 0; i < 3; i++) await countAttempt(db, "account", rule);
  await forgetAttempts(db, "account");
  expect(await countAttempt(db, "account", rule)).toEqual({ allowed: true });
  for (let i = 0; i < 3; i++) await countAttempt(db, "ip", rule);
  await takeBackAttempt(db, "ip");
  expect(await countAttempt(db, "ip", rule)).toEqual({ allowed: true });
  expect((await countAttempt(db, "ip", rule)).allowed).toBe(false);
});

testOnPostgres("concurrent attempts from several connections each get their own count: exactly `max` pass", async () => {
  const db = await openDb(10);
  const verdicts = await Promise.all(Array.from({ length: 12 }, () => countAttempt(db, "race", { max: 5, windowMs: 60_000 })));
  expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(5);
  const [row] = await db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, "race"));
  expect(row?.count).toBe(12);
});
