import type { Db } from "#server/db/client.ts";
import type { Env } from "#server/env.ts";
import { startJob, type Job } from "#server/jobs/scheduler.ts";
import { deliverDueEmails } from "./delivery.service";
import { onEmailQueued } from "./outbox";
import { createMailer } from "./mailer";

export const mailDeliveryIntervalMs = 15_000;
/**
 * A mail queued in this process goes out this long after it was queued (the queueing transaction has
 * committed by then; if not, the next poll sends it). Mails queued together go in one run.
 */
export const mailQueuedDelayMs = 1_000;

type Logger = {
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
};

/**
 * Sends queued mail a second after this process queues it, and every 15 seconds (retries, mail queued by
 * other processes) when SMTP_URL is set. Without it there is no job: mail stays
 * queued in the outbox, where the back office shows it (and sends it once SMTP is configured).
 */
export function startMailDeliveryJob(options: { db: Db; env: Pick<Env, "SMTP_URL" | "MAIL_FROM">; log: Logger }): Job | null {
  const { db, log } = options;
  const mailer = createMailer(options.env);
  if (!mailer) {
    log.info({}, "SMTP_URL is not set: e-mails stay queued in the outbox");
    return null;
  }
  let unsubscribe = () => {};
  const job = startJob({
    name: "mail-delivery",
    everyMs: mailDeliveryIntervalMs,
    log,
    run: async ({ signal }) => {
      const report = await deliverDueEmails(db, mailer, { signal });
      if (report.retried > 0 || report.failed > 0) log.warn({ ...report }, "some e-mails were not sent");
      else if (report.claimed > 0 || report.requeued > 0) log.info({ ...report }, "e-mails sent");
    },
    onStop: () => unsubscribe(),
  });
  unsubscribe = onEmailQueued(() => job.runSoon(mailQueuedDelayMs));
  return job;
}
