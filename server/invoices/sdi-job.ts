import type { Db } from "#server/db/client.ts";
import type { Env } from "#server/env.ts";
import { startJob, type Job } from "#server/jobs/scheduler.ts";
import { createAcubeSender } from "./acube";
import { issueDueInvoices } from "./invoice.service";
import { pollSilentTransmissions, queueUnsentDocuments, sendDueTransmissions } from "./sdi.service";
import { onSdiWork } from "./sdi-signal";

export const sdiSendingIntervalMs = 60_000;
/** A document issued or corrected in this process goes this long after (its transaction has committed by then). */
export const sdiWorkDelayMs = 1_000;

type Logger = {
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
};

/**
 * Every minute, and a second after a document is issued or corrected, when A-Cube's account is configured: queues a file for each newly issued document, hands
 * the due files to the intermediary and asks about files whose answer has not come (docs/decisions/0091-sdi-intermediary.md). Without the account there
 * is no job: the staff download each file, as the back office's SDI page says.
 */
export function startSdiSendingJob(options: {
  db: Db;
  env: Pick<Env, "ACUBE_EMAIL" | "ACUBE_PASSWORD" | "ACUBE_API_URL" | "ACUBE_LOGIN_URL">;
  log: Logger;
}): Job | null {
  const { db, log } = options;
  const sender = createAcubeSender(options.env);
  if (!sender) {
    log.info({}, "ACUBE_EMAIL is not set: invoices are not sent to the SDI, the staff download them");
    return null;
  }
  let unsubscribe = () => {};
  const job = startJob({
    name: "sdi-sending",
    everyMs: sdiSendingIntervalMs,
    log,
    run: async ({ signal }) => {
      const queued = await queueUnsentDocuments(db, new Date());
      const report = await sendDueTransmissions(db, sender, { signal });
      if (report.retried > 0 || report.refused > 0) log.warn({ queued, ...report }, "some invoices did not reach the SDI's intermediary");
      else if (queued > 0 || report.claimed > 0) log.info({ queued, ...report }, "invoices sent to the SDI's intermediary");
      const polled = await pollSilentTransmissions(db, sender, { signal });
      if (polled.failed > 0) log.warn({ ...polled }, "the SDI's intermediary did not say what became of some invoices");
      else if (polled.applied > 0) log.info({ ...polled }, "answers of the SDI read from the intermediary (their callbacks did not come)");
    },
    onStop: () => unsubscribe(),
  });
  unsubscribe = onSdiWork(() => job.runSoon(sdiWorkDelayMs));
  return job;
}

/** Every minute: the invoices the settings say are due (on payment or shipping) are issued; "manual" issues none. */
export function startInvoiceIssuingJob(options: { db: Db; log: Logger }): Job {
  const { db, log } = options;
  return startJob({
    name: "invoice-issuing",
    everyMs: sdiSendingIntervalMs,
    log,
    run: async () => {
      const report = await issueDueInvoices(db, new Date());
      if (report.refused > 0) log.warn({ ...report }, "some invoices could not be issued: the staff complete them");
      else if (report.issued > 0) log.info({ ...report }, "invoices issued");
    },
  });
}
