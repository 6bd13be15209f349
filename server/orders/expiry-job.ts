/**
 * Every 5 minutes: bank-transfer orders unpaid past their due date (settings "bankTransfer.daysToPay")
 * expire and give their stock back; the customer is told by e-mail. Card orders have their own job in
 * server/payments (it asks the provider first). Needs nothing but the database: safe after a restart.
 */
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { startJob, type Job } from "#server/jobs/scheduler.ts";
import { expireOverdueOrders } from "./order.service";

export const orderExpiryIntervalMs = 5 * 60_000;

export function startOrderExpiryJob(services: Pick<ShopServices, "db" | "env" | "log" | "publicUrl">): Job {
  const links = { publicUrl: services.publicUrl, secret: resolveAuthSecret(services.env) };
  return startJob({
    name: "order-expiry",
    everyMs: orderExpiryIntervalMs,
    log: services.log,
    run: async () => {
      const expired = await expireOverdueOrders(services.db, new Date(), links);
      if (expired > 0) services.log.info({ expired }, "unpaid bank-transfer orders expired");
    },
  });
}
