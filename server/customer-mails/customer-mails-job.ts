/**
 * Every ten minutes: the abandoned-cart reminders and review invitations now due are queued (each once:
 * their tables' unique keys stop a second process from queueing it again).
 */
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { startJob, type Job } from "#server/jobs/scheduler.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { sendDueCartReminders } from "./cart-reminder.service";
import { sendDueReviewInvitations } from "./review-invitation.service";

export function startCustomerMailsJob(services: Pick<ShopServices, "db" | "env" | "log" | "publicUrl">): Job {
  const links = { publicUrl: services.publicUrl, secret: resolveAuthSecret(services.env) };
  return startJob({
    name: "customer-mails",
    everyMs: 10 * 60_000,
    log: services.log,
    run: async () => {
      const reminders = await sendDueCartReminders(services.db, { links });
      const invitations = await sendDueReviewInvitations(services.db, { links });
      if (reminders + invitations > 0) services.log.info({ reminders, invitations }, "customer mails queued");
    },
  });
}
