import fc from "fast-check";
import { expect, test } from "vitest";
import { displayCurrencies, formatMoney } from "./format";
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
