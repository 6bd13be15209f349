import type { TFunction } from "i18next";
import { expect, test } from "vitest";
import { summarizeCart, summarizeOrderTotals, summaryLineText } from "./order-summary";

test("an order's totals as lines: the list price first, each saving taken off, fees added; they add up to the total", () => {
  // 39,90 € at 40% off (23,94 €), a 10% code (2,39 €), personalisation 5 €, delivery 6,90 €, cash on delivery 3 €.
  const summary = summarizeOrderTotals(
    { subtotalCents: 2394 - 239, discountCents: 1596 + 239, personalisationCents: 500, shippingCents: 690, paymentFeeCents: 300 },
    { code: { code: "BENVENUTO10", percent: 10, discountCents: 239 } },
  );
  expect(summary.lines).toEqual([
    { kind: "subtotal", cents: 3990 },
    { kind: "offers", cents: -1596 },
    { kind: "discount-code", cents: -239, code: "BENVENUTO10", percent: 10 },
    { kind: "personalisation", cents: 500 },
    { kind: "shipping", cents: 690, toChoose: false },
    { kind: "payment-fee", cents: 300 },
  ]);
  expect(summary.totalCents).toBe(2394 - 239 + 500 + 690 + 300);
});

test("no saving, no personalisation, no fee: only the subtotal and the delivery, which is to be chosen or free", () => {
  const totals = { subtotalCents: 1000, discountCents: 0, personalisationCents: 0, shippingCents: 0, paymentFeeCents: 0 };
  expect(summarizeOrderTotals(totals, { code: null, shippingToChoose: true })).toEqual({
    lines: [
      { kind: "subtotal", cents: 1000 },
      { kind: "shipping", cents: 0, toChoose: true },
    ],
    totalCents: 1000,
  });
  expect(summarizeOrderTotals(totals, { code: null }).lines[1]).toEqual({ kind: "shipping", cents: 0, toChoose: false });
});

test("a cart has no delivery line; its code is taken off its total", () => {
  const summary = summarizeCart(
    { subtotalCents: 3990, discountCents: 1596, personalisationCents: 0 },
    { code: "MENO5", percent: null, discountCents: 500 },
  );
  expect(summary).toEqual({
    lines: [
      { kind: "subtotal", cents: 3990 },
      { kind: "offers", cents: -1596 },
      { kind: "discount-code", cents: -500, code: "MENO5", percent: null },
    ],
    totalCents: 1894,
  });
});

test("in words: savings with a minus sign, personalisation with a plus, a free or unchosen delivery by name", () => {
  const t = ((key: string, values?: Record<string, unknown>) => `${key}${values ? JSON.stringify(values) : ""}`) as unknown as TFunction;
  const euros = (cents: number) => `${(cents / 100).toFixed(2)} €`;
  expect(summaryLineText(t, { kind: "offers", cents: -1596 }, euros)).toEqual({ term: "orderSummary.offers", value: "−15.96 €" });
  expect(summaryLineText(t, { kind: "discount-code", cents: -239, code: "B10", percent: 10 }, euros)).toEqual({
    term: 'orderSummary.discountCodePercent{"code":"B10","percent":10}',
    value: "−2.39 €",
  });
  expect(summaryLineText(t, { kind: "personalisation", cents: 500 }, euros).value).toBe("+5.00 €");
  expect(summaryLineText(t, { kind: "shipping", cents: 0, toChoose: true }, euros).value).toBe("orderSummary.shippingToChoose");
  expect(summaryLineText(t, { kind: "shipping", cents: 0, toChoose: false }, euros).value).toBe("orderSummary.free");
  expect(summaryLineText(t, { kind: "shipping", cents: 690, toChoose: false }, euros).value).toBe("6.90 €");
});
