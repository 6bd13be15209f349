/**
 * Every hour: what is left on gift cards past their expiry goes to an "expiry" movement (the card then shows
 * 0,00 € and "Scaduta"). Needs nothing but the database; two processes skip each other's locked cards.
 */
import type { ShopServices } from "#server/shop-services.ts";
import { startJob, type Job } from "#server/jobs/scheduler.ts";
import { expireGiftCards } from "./gift-card.service";

export const giftCardExpiryIntervalMs = 60 * 60_000;

export function startGiftCardExpiryJob(services: Pick<ShopServices, "db" | "log">): Job {
  return startJob({
    name: "gift-card-expiry",
    everyMs: giftCardExpiryIntervalMs,
    log: services.log,
    run: async () => {
      const expired = await expireGiftCards(services.db, new Date());
      if (expired > 0) services.log.info({ expired }, "gift cards expired");
    },
  });
}
