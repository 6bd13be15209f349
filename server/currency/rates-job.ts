/**
 * Keeps the stored exchange rates fresh while the server runs (RATES_URL set): one refresh at
 * start, then every 6 hours. A failed refresh is logged and the last rates stay; nothing here can
 * crash the process, and the timer never keeps it alive.
 */
import type { Db } from "#server/db/client.ts";
import { refreshExchangeRates, type RefreshRatesResult } from "./rates.service";

/** The ECB publishes once a working day, around 16:00 CET; four looks a day catch it within hours. */
export const ratesRefreshIntervalMs = 6 * 60 * 60 * 1000;

type JobLogger = {
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
};

export type ExchangeRatesJob = {
  /** Runs one refresh now (waits for one already running instead of starting a second). */
  refreshNow: () => Promise<RefreshRatesResult | null>;
  /** Stops the timer, aborts a refresh in flight and waits for it to settle. */
  stop: () => Promise<void>;
};

export function startExchangeRatesJob(options: {
  db: Db;
  url: string;
  log: JobLogger;
  intervalMs?: number;
  fetch?: typeof globalThis.fetch;
}): ExchangeRatesJob {
  const { db, url, log } = options;
  const controller = new AbortController();
  let running: Promise<RefreshRatesResult | null> | null = null;
  let stopped = false;

  const refreshNow = () => {
    if (stopped) return Promise.resolve(null);
    running ??= refreshOnce().finally(() => {
      running = null;
    });
    return running;
  };

  async function refreshOnce(): Promise<RefreshRatesResult | null> {
    try {
      const result = await refreshExchangeRates(db, { url, fetch: options.fetch, signal: controller.signal });
      if (result.ok) {
        log.info({ date: result.date, updated: result.updated, missing: result.missing, keptManual: result.keptManual }, "exchange rates refreshed");
      } else if (!stopped) {
        log.warn({ error: result.error, detail: result.detail, url }, "exchange rates not refreshed; keeping the last rates");
      }
      return result;
    } catch (error) {
      // A database error (e.g. closed during shutdown) must not become an unhandled rejection.
      if (!stopped) log.warn({ err: error, url }, "exchange rates not refreshed; keeping the last rates");
      return null;
    }
  }

  void refreshNow();
  const timer = setInterval(() => void refreshNow(), options.intervalMs ?? ratesRefreshIntervalMs);
  timer.unref();

  return {
    refreshNow,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      controller.abort();
      await running;
    },
  };
}
