/**
 * Keeps the stored exchange rates fresh while the server runs (RATES_URL set): one refresh at
 * start, then every 6 hours, on the shop's job runner (server/jobs/scheduler.ts). A failed refresh
 * is logged and the last rates stay; nothing here can crash the process.
 */
import type { Db } from "#server/db/client.ts";
import { startJob, type Job } from "#server/jobs/scheduler.ts";
import { refreshExchangeRates } from "./rates.service";

/** The ECB publishes once a working day, around 16:00 CET; four looks a day catch it within hours. */
export const ratesRefreshIntervalMs = 6 * 60 * 60 * 1000;

type RatesJobLogger = {
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
};

export function startExchangeRatesJob(options: {
  db: Db;
  url: string;
  log: RatesJobLogger;
  intervalMs?: number;
  fetch?: typeof globalThis.fetch;
}): Job {
  const { db, url, log } = options;
  return startJob({
    name: "exchange-rates",
    everyMs: options.intervalMs ?? ratesRefreshIntervalMs,
    log,
    run: async ({ signal }) => {
      try {
        const result = await refreshExchangeRates(db, { url, fetch: options.fetch, signal });
        if (result.ok) {
          log.info(
            { date: result.date, updated: result.updated, missing: result.missing, keptManual: result.keptManual },
            "exchange rates refreshed",
          );
        } else if (!signal.aborted) {
          log.warn({ error: result.error, detail: result.detail, url }, "exchange rates not refreshed; keeping the last rates");
        }
      } catch (error) {
        // A database error (e.g. closed during shutdown) is a warning here, not a failed job: the last rates stay.
        if (!signal.aborted) log.warn({ err: error, url }, "exchange rates not refreshed; keeping the last rates");
      }
    },
  });
}
