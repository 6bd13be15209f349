/**
 * Every 10 minutes, the loyalty card's background work, each step safe to repeat and to run from several
 * processes (unique entries and notices, the card row locked for each change): orders past their
 * withdrawal period earn their points, refunds since take theirs back, points past their day expire, and
 * statements go to those whose points expire soon.
 */
import { startJob, type Job } from "#server/jobs/scheduler.ts";
import type { Db } from "#server/db/client.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { creditEarnedPoints, takeBackPointsOfRefunds } from "./loyalty-settlement.service";
import { queueExpiryStatements } from "./loyalty-statements.service";
import { expirePoints } from "./loyalty.service";

export const loyaltyJobIntervalMs = 10 * 60_000;

/** One run of the job, as the tests call it. */
export async function runLoyaltyJob(db: Db, args: { now: Date; publicUrl: string | null }) {
  const credited = await creditEarnedPoints(db, args.now);
  const takenBack = await takeBackPointsOfRefunds(db, args.now);
  const expired = await expirePoints(db, args.now);
  const statements = await queueExpiryStatements(db, args);
  return { credited, takenBack, expired, statements };
}

export function startLoyaltyJob(services: Pick<ShopServices, "db" | "log" | "publicUrl">): Job {
  return startJob({
    name: "loyalty",
    everyMs: loyaltyJobIntervalMs,
    runAtStart: false,
    log: services.log,
    run: async () => {
      const done = await runLoyaltyJob(services.db, { now: new Date(), publicUrl: services.publicUrl });
      if (Object.values(done).some((count) => count > 0)) services.log.info(done, "loyalty points settled");
    },
  });
}
