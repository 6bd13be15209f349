import { expect, onTestFinished, test, vi } from "vitest";
import { exchangeRates } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { startExchangeRatesJob } from "./rates-job";
import { ecbDailyXml, startRatesEndpoint, type RatesReply } from "#tests/peers/local-rates-server.ts";
import { clearExchangeRateOverride, getDisplayCurrency, getExchangeRates, overrideExchangeRate, refreshExchangeRates } from "./rates.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

async function localRates(reply: RatesReply) {
  const endpoint = await startRatesEndpoint(reply);
  onTestFinished(() => endpoint.close());
  return endpoint;
}

const ratesOf = async (db: Awaited<ReturnType<typeof openDb>>) => {
  const rates = await getExchangeRates(db);
  return { USD: [rates.USD.ratePerEur, rates.USD.source], GBP: [rates.GBP.ratePerEur, rates.GBP.source] };
};

test("with no stored rows the bundled rates apply, and EUR is always 1", async () => {
  const db = await openDb();

  expect(await ratesOf(db)).toEqual({ USD: [1.08, "bundled"], GBP: [0.85, "bundled"] });
  expect(await getDisplayCurrency(db, "EUR")).toEqual({ code: "EUR", ratePerEur: 1 });
  expect(await getDisplayCurrency(db, "GBP")).toEqual({ code: "GBP", ratePerEur: 0.85 });
});

test("a refresh from the rates endpoint stores USD and GBP and ignores every other code", async () => {
  const db = await openDb();
  const { url, endpoint } = await localRates({ body: ecbDailyXml({ USD: "1.0772", JPY: "167.75", GBP: "0.86075", CHF: "0.9766" }) });

  const result = await refreshExchangeRates(db, { url });

  expect(result).toEqual({ ok: true, date: "2024-05-10", updated: ["USD", "GBP"], missing: [], keptManual: [] });
  expect(endpoint.requests).toBe(1);
  expect(await ratesOf(db)).toEqual({ USD: [1.0772, "ecb"], GBP: [0.86075, "ecb"] });
  expect(await getDisplayCurrency(db, "USD")).toEqual({ code: "USD", ratePerEur: 1.0772 });
  const stored = await db.select({ currency: exchangeRates.currency }).from(exchangeRates);
  expect(stored.map((row) => row.currency).sort()).toEqual(["GBP", "USD"]);
});

test("a failed refresh keeps the last good rates: server error, malformed file, unreachable endpoint", async () => {
  const db = await openDb();
  const rates = await localRates({ body: ecbDailyXml({ USD: "1.10", GBP: "0.84" }) });
  expect((await refreshExchangeRates(db, { url: rates.url })).ok).toBe(true);

  rates.endpoint.reply = { status: 503, body: "Service Unavailable", contentType: "text/plain" };
  expect(await refreshExchangeRates(db, { url: rates.url })).toMatchObject({ ok: false, error: "rates-http-status", detail: "HTTP 503" });

  rates.endpoint.reply = { body: "<html><body>Maintenance</body></html>", contentType: "text/html" };
  expect(await refreshExchangeRates(db, { url: rates.url })).toMatchObject({ ok: false, error: "rates-malformed" });

  await rates.close();
  expect(await refreshExchangeRates(db, { url: rates.url, timeoutMs: 2000 })).toMatchObject({ ok: false, error: "rates-unreachable" });

  expect(await ratesOf(db)).toEqual({ USD: [1.1, "ecb"], GBP: [0.84, "ecb"] });
});

test("a file without one display currency updates the other and keeps the missing one's last rate", async () => {
  const db = await openDb();
  const rates = await localRates({ body: ecbDailyXml({ USD: "1.10", GBP: "0.84" }) });
  await refreshExchangeRates(db, { url: rates.url });

  rates.endpoint.reply = { body: ecbDailyXml({ USD: "1.12", JPY: "170.2" }, "2024-05-13") };
  const result = await refreshExchangeRates(db, { url: rates.url });

  expect(result).toEqual({ ok: true, date: "2024-05-13", updated: ["USD"], missing: ["GBP"], keptManual: [] });
  expect(await ratesOf(db)).toEqual({ USD: [1.12, "ecb"], GBP: [0.84, "ecb"] });
});

test("a rate set by hand survives refreshes until the override is cleared", async () => {
  const db = await openDb();
  const rates = await localRates({ body: ecbDailyXml({ USD: "1.10", GBP: "0.84" }) });
  await overrideExchangeRate(db, { currency: "GBP", ratePerEur: 0.9 });

  const result = await refreshExchangeRates(db, { url: rates.url });

  expect(result).toMatchObject({ ok: true, updated: ["USD"], keptManual: ["GBP"] });
  expect(await ratesOf(db)).toEqual({ USD: [1.1, "ecb"], GBP: [0.9, "manual"] });

  await clearExchangeRateOverride(db, "GBP");
  expect(await ratesOf(db)).toEqual({ USD: [1.1, "ecb"], GBP: [0.85, "bundled"] });
  await refreshExchangeRates(db, { url: rates.url });
  expect(await ratesOf(db)).toEqual({ USD: [1.1, "ecb"], GBP: [0.84, "ecb"] });
});

test("the job refreshes at start and on its interval, logs failures without throwing, and stops", async () => {
  const db = await openDb();
  const rates = await localRates({ body: ecbDailyXml({ USD: "1.10", GBP: "0.84" }) });
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

  const job = startExchangeRatesJob({ db, url: rates.url, log, intervalMs: 50 });
  onTestFinished(() => job.stop());

  await vi.waitFor(() => expect(log.info).toHaveBeenCalledWith(expect.objectContaining({ updated: ["USD", "GBP"] }), "exchange rates refreshed"));
  expect(await ratesOf(db)).toEqual({ USD: [1.1, "ecb"], GBP: [0.84, "ecb"] });

  rates.endpoint.reply = { status: 500, body: "boom", contentType: "text/plain" };
  await vi.waitFor(() =>
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ error: "rates-http-status" }),
      "exchange rates not refreshed; keeping the last rates",
    ),
  );
  expect(await ratesOf(db)).toEqual({ USD: [1.1, "ecb"], GBP: [0.84, "ecb"] });

  // That no timer runs after stop() is the scheduler's own test (server/jobs/scheduler.test.ts).
  await job.stop();
  const requestsAtStop = rates.endpoint.requests;
  await job.runNow();
  expect(rates.endpoint.requests).toBe(requestsAtStop);
  expect(log.error).not.toHaveBeenCalled();
});
