import fc from "fast-check";
import { expect, test } from "vitest";
import { displayCurrencies, formatAverage, formatMoney } from "./format";
import { intlLocale, type Locale } from "./locale";

const locales: Locale[] = ["it", "en"];

/** What the shop printed before formatMoney was written by hand: Intl, as browsers and Node format it. */
function intlMoney(minorUnits: number, locale: Locale, currency: string) {
  const format = new Intl.NumberFormat(intlLocale[locale], {
    style: "currency",
    currency,
    currencyDisplay: "narrowSymbol",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return format.format(minorUnits / 100);
}

test("prices read as before: Italian '1234,50 €' and '12.345,67 €', English '€1,234.50'", () => {
  expect(formatMoney(123450, "it")).toBe("1234,50\u00a0€");
  expect(formatMoney(1234567, "it")).toBe("12.345,67\u00a0€");
  expect(formatMoney(123450, "en", "GBP")).toBe("£1,234.50");
  expect(formatMoney(-500, "en", "USD")).toBe("-$5.00");
});

test("every amount in every language and display currency is written exactly as Intl writes it", () => {
  const amounts = fc.oneof(
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    fc.integer({ min: -(10 ** 15), max: 10 ** 15 }),
    fc.constantFrom(0, -0, 1, 99, 100, 99_999, 100_000, 999_999_99, 1.5, -2.5, 0.4),
  );
  fc.assert(
    fc.property(amounts, fc.constantFrom(...locales), fc.constantFrom(...displayCurrencies), (minorUnits, locale, currency) => {
      expect(formatMoney(minorUnits, locale, currency)).toBe(intlMoney(minorUnits, locale, currency));
    }),
    { numRuns: 5_000 },
  );
});

test("an average of stars reads '4,5' in Italian and '4.5' in English, always rounded as Intl rounds it", () => {
  expect(formatAverage(4.5, "it")).toBe("4,5");
  expect(formatAverage(4, "en")).toBe("4.0");
  expect(formatAverage(13 / 3, "it")).toBe("4,3");
  // Every average of up to 200 reviews of 1 to 5 stars, the ties in between, and any number from 1 to 5.
  const averages = fc.oneof(
    fc.integer({ min: 1, max: 200 }).chain((count) => fc.integer({ min: count, max: 5 * count }).map((stars) => stars / count)),
    fc.integer({ min: 10, max: 50 }).map((tenths) => tenths / 10 + 0.05),
    fc.double({ min: 1, max: 5, noNaN: true }),
  );
  fc.assert(
    fc.property(averages, fc.constantFrom(...locales), (average, locale) => {
      const intl = new Intl.NumberFormat(intlLocale[locale], { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(average);
      expect(formatAverage(average, locale)).toBe(intl);
    }),
    { numRuns: 5_000 },
  );
});
