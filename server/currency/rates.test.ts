import { expect, test } from "vitest";
import { bundledExchangeRates } from "#server/db/seed.ts";
import { bundledRatesPerEur, currencyCookie, parseDailyRates, ratesToStore, readCurrencyCookie } from "./rates";
import { ecbDailyXml } from "#tests/peers/local-rates-server.ts";
import { CurrencyChoice } from "./rates.inputs";

test("the ECB daily file gives every listed rate per 1 EUR and its day", () => {
  const parsed = parseDailyRates(ecbDailyXml({ USD: "1.0772", JPY: "167.75", GBP: "0.86075" }));

  expect(parsed).toEqual({ ok: true, rates: { date: "2024-05-10", ratesPerEur: { USD: 1.0772, JPY: 167.75, GBP: 0.86075 } } });
});

test("attributes in double quotes and in the other order are read too", () => {
  const xml = ecbDailyXml({}).replace("\t\t</Cube>", `<Cube rate="0.85" currency="GBP" />\n\t\t</Cube>`);

  expect(parseDailyRates(xml)).toEqual({ ok: true, rates: { date: "2024-05-10", ratesPerEur: { GBP: 0.85 } } });
});

test("only the display currencies are stored; one the file leaves out keeps its last rate", () => {
  const parsed = parseDailyRates(ecbDailyXml({ USD: "1.09", JPY: "160.1", CHF: "0.97" }));
  if (!parsed.ok) throw new Error("expected rates");

  expect(ratesToStore(parsed.rates)).toEqual({ update: { USD: 1.09 }, missing: ["GBP"] });
});

test("unusable rates are skipped, and a file with none at all is malformed", () => {
  const someBad = parseDailyRates(ecbDailyXml({ USD: "abc", GBP: "0", JPY: "-3", CHF: "0.97" }));
  expect(someBad).toEqual({ ok: true, rates: { date: "2024-05-10", ratesPerEur: { CHF: 0.97 } } });

  expect(parseDailyRates(ecbDailyXml({ USD: "n/a" }))).toEqual({ ok: false, error: "malformed" });
  expect(parseDailyRates("")).toEqual({ ok: false, error: "malformed" });
  expect(parseDailyRates("<html><body>Service unavailable</body></html>")).toEqual({ ok: false, error: "malformed" });
  // Cut off half way (a dropped connection): not trusted, even though some rates are readable.
  const truncated = ecbDailyXml({ USD: "1.07", GBP: "0.86" }).slice(0, -40);
  expect(parseDailyRates(truncated)).toEqual({ ok: false, error: "malformed" });
});

test("the JSON shape with base EUR is accepted; another base is not", () => {
  expect(parseDailyRates(JSON.stringify({ base: "EUR", date: "2024-05-10", rates: { USD: 1.08, GBP: 0.85 } }))).toEqual({
    ok: true,
    rates: { date: "2024-05-10", ratesPerEur: { USD: 1.08, GBP: 0.85 } },
  });
  expect(parseDailyRates(JSON.stringify({ base: "USD", rates: { EUR: 0.92 } }))).toEqual({ ok: false, error: "malformed" });
  expect(parseDailyRates("{ not json")).toEqual({ ok: false, error: "malformed" });
});

test("the currency cookie is read strictly: anything but EUR, USD or GBP means EUR", () => {
  expect(readCurrencyCookie(null)).toBe("EUR");
  expect(readCurrencyCookie("a=1; currency=USD; b=2")).toBe("USD");
  expect(readCurrencyCookie("currency=GBP")).toBe("GBP");
  expect(readCurrencyCookie("currency=JPY")).toBe("EUR");
  expect(readCurrencyCookie("currency=usd")).toBe("EUR");
  expect(readCurrencyCookie("mycurrency=USD")).toBe("EUR");
});

test("the cookie is remembered for a year, Lax, and Secure on https", () => {
  expect(currencyCookie("USD", { secure: false })).toBe("currency=USD; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly");
  expect(currencyCookie("GBP", { secure: true })).toMatch(/; Secure$/);
});

test("only same-site paths are accepted as the way back", () => {
  expect(CurrencyChoice.parse({ currency: "EUR", redirectTo: "/en/shop?sort=priceLowToHigh#top" }).redirectTo).toBe(
    "/en/shop?sort=priceLowToHigh#top",
  );
  expect(CurrencyChoice.parse({ currency: "EUR", redirectTo: "/" }).redirectTo).toBe("/");
  for (const bad of [
    "https://evil.example/",
    "//evil.example",
    "/.//evil.example/x",
    "/%2e//evil.example",
    "/\\evil.example",
    "evil",
    "/x\ny",
    "",
    null,
    42,
    "javascript:alert(1)",
  ]) {
    expect(CurrencyChoice.parse({ currency: "EUR", redirectTo: bad }).redirectTo, String(bad)).toBeNull();
  }
});

test("the bundled rates are the ones the seed stores", () => {
  expect(Object.fromEntries(bundledExchangeRates.map((rate) => [rate.currency, rate.ratePerEur]))).toEqual(bundledRatesPerEur);
});

test("the switch accepts EUR, USD and GBP, with or without a way back, and nothing else", () => {
  expect(CurrencyChoice.parse({ currency: "GBP" })).toEqual({ currency: "GBP", redirectTo: null });
  expect(CurrencyChoice.parse({ currency: "USD", redirectTo: "/en/shop" })).toEqual({ currency: "USD", redirectTo: "/en/shop" });
  expect(CurrencyChoice.parse({ currency: "EUR", redirectTo: "https://evil.example" })).toEqual({ currency: "EUR", redirectTo: null });
  for (const currency of ["JPY", "usd", "", undefined, ["USD"]]) {
    expect(CurrencyChoice.safeParse({ currency }).success).toBe(false);
  }
});
