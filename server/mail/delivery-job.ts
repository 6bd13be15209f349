import type { Db } from "#server/db/client.ts";
import type { Env } from "#server/env.ts";
import { startJob, type Job } from "#server/jobs/scheduler.ts";
import { deliverDueEmails } from "./delivery.service";
import { createMailer } from "./mailer";

export const mailDeliveryIntervalMs = 15_000;

type Logger = {
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
};

/**
 * Sends queued mail every 15 seconds when SMTP_URL is set. Without it there is no job: mail stays
 * queued in the outbox, where the back office shows it (and sends it once SMTP is configured).
 */
export function startMailDeliveryJob(options: { db: Db; env: Pick<Env, "SMTP_URL" | "MAIL_FROM">; log: Logger }): Job | null {
  const { db, log } = options;
  const mailer = createMailer(options.env);
  if (!mailer) {
    log.info({}, "SMTP_URL is not set: e-mails stay queued in the outbox");
    return null;
  }
  return startJob({
    name: "mail-delivery",
    everyMs: mailDeliveryIntervalMs,
    log,
    run: async ({ signal }) => {
      const report = await deliverDueEmails(db, mailer, { signal });
      if (report.retried > 0 || report.failed > 0) log.warn({ ...report }, "some e-mails were not sent");
      else if (report.claimed > 0 || report.requeued > 0) log.info({ ...report }, "e-mails sent");
    },
  });
}
