/**
 * Every minute: card refunds the provider has not made yet (it was down, or answered with an error) are
 * asked again, each with its own idempotency key, so a refund whose answer was lost is not made twice.
 */
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { startJob, type Job } from "#server/jobs/scheduler.ts";
import { paymentProviderNamed } from "#server/payments/payment-provider.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { retryDueRefunds } from "./refunds.service";

export function startRefundRetryJob(services: Pick<ShopServices, "db" | "env" | "log" | "publicUrl">): Job {
  const links = { publicUrl: services.publicUrl, secret: resolveAuthSecret(services.env) };
  return startJob({
    name: "refund-retry",
    everyMs: 60_000,
    log: services.log,
    run: async () => {
      const made = await retryDueRefunds({ db: services.db, provider: (name: string) => paymentProviderNamed(services, name), links }, new Date());
      if (made > 0) services.log.info({ made }, "card refunds made on retry");
    },
  });
}
