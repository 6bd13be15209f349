import { startJob, type Job } from "#server/jobs/scheduler.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { settleOverdueCardOrders } from "./payment.service";

export const cardPaymentExpiryIntervalMs = 60_000;

/**
 * Every minute: card orders past their time to pay are settled with the provider (paid, or expired
 * with their stock back). Also the recovery after a crash: it needs nothing but the database.
 */
export function startCardPaymentExpiryJob(services: ShopServices): Job {
  return startJob({
    name: "card-payment-expiry",
    everyMs: cardPaymentExpiryIntervalMs,
    log: services.log,
    run: async () => {
      const report = await settleOverdueCardOrders(services, new Date());
      if (report.paid + report.expired + report.failed > 0) services.log.info({ ...report }, "overdue card orders settled");
    },
  });
}
