import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { rateLimits } from "#server/db/schema.ts";
import { judgeWindow, type ThrottleRule, type ThrottleVerdict } from "./login-throttle";

/**
 * Counts one attempt under `key` and says whether it is still within `rule`. One atomic upsert:
 * concurrent attempts (several app processes) each get their own count. A window starts at its
 * first attempt and, once passed, starts again at 1.
 */
export async function countAttempt(db: Db, key: string, rule: ThrottleRule, now = new Date()): Promise<ThrottleVerdict> {
  const nowMs = now.getTime();
  const windowOver = sql`${rateLimits.lastRequest} <= ${nowMs - rule.windowMs}`;
  const [row] = await db
    .insert(rateLimits)
    .values({ id: crypto.randomUUID(), key, count: 1, lastRequest: nowMs })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${windowOver} then 1 else ${rateLimits.count} + 1 end`,
        lastRequest: sql`case when ${windowOver} then ${nowMs}::bigint else ${rateLimits.lastRequest} end`,
      },
    })
    .returning({ count: rateLimits.count, lastRequest: rateLimits.lastRequest });
  return judgeWindow({ count: row!.count, windowStartMs: Number(row!.lastRequest) }, nowMs, rule);
}

/** Whether `key` already used up its allowance within `rule`, without counting this request. */
export async function isThrottled(db: Db, key: string, rule: ThrottleRule, now = new Date()): Promise<boolean> {
  const [row] = await db.select({ count: rateLimits.count, lastRequest: rateLimits.lastRequest }).from(rateLimits).where(eq(rateLimits.key, key));
  if (!row || Number(row.lastRequest) <= now.getTime() - rule.windowMs) return false;
  return !judgeWindow({ count: row.count, windowStartMs: Number(row.lastRequest) }, now.getTime(), rule).allowed;
}

/** A successful login clears its account's count. */
export async function forgetAttempts(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** A successful login does not use up its address's allowance. */
export async function takeBackAttempt(db: Db, key: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(eq(rateLimits.key, key));
}
