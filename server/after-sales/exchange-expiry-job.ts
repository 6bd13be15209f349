/**
 * Every hour: units reserved for an exchange whose goods have not come back in time go back on the
 * shelf (docs/decisions/0105-exchanges.md); the return itself stays open for a refund.
 */
import { startJob, type Job } from "#server/jobs/scheduler.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { expireExchangeReservations } from "./exchanges.service";

export function startExchangeExpiryJob(services: Pick<ShopServices, "db" | "log">): Job {
  return startJob({
    name: "exchange-expiry",
    everyMs: 60 * 60_000,
    log: services.log,
    run: async () => {
      const released = await expireExchangeReservations(services.db, new Date());
      if (released > 0) services.log.info({ released }, "exchange reservations released");
    },
  });
}
