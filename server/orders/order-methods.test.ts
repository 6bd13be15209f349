import { expect, test } from "vitest";
import { defaultSettings } from "#server/settings/settings.ts";
import { allowedPaymentMethods, paymentDueAt, paymentFeeCents, quoteDeliveries } from "./order-methods";

const delivery = { localPostcodes: ["80013"], standardFeeCents: 690, cashOnDeliveryFeeCents: 300 };

test("a local postcode gets free home delivery and no paid standard delivery", () => {
  expect(quoteDeliveries(delivery, { postcode: "80013", allLinesFreeShipping: false })).toEqual([
    { method: "local_delivery", feeCents: 0, available: true, reason: null },
    { method: "collection", feeCents: 0, available: true, reason: null },
    { method: "standard", feeCents: 690, available: false, reason: "postcode-local" },
  ]);
});

test("elsewhere in Italy: standard delivery at the flat fee, no local delivery", () => {
  expect(quoteDeliveries(delivery, { postcode: "20121", allLinesFreeShipping: false })).toEqual([
    { method: "local_delivery", feeCents: 0, available: false, reason: "postcode-not-local" },
    { method: "collection", feeCents: 0, available: true, reason: null },
    { method: "standard", feeCents: 690, available: true, reason: null },
  ]);
});

test("standard delivery is free when every line is free-shipping", () => {
  const standard = quoteDeliveries(delivery, { postcode: "20121", allLinesFreeShipping: true }).find((quote) => quote.method === "standard");
  expect(standard).toMatchObject({ feeCents: 0, available: true });
});

test("before a postcode is typed both home deliveries are offered", () => {
  const quotes = quoteDeliveries(delivery, { postcode: null, allLinesFreeShipping: false });
  expect(quotes.every((quote) => quote.available)).toBe(true);
});

test("the fees come from the settings (the back office can change them)", () => {
  const changed = { localPostcodes: ["80013", "80011"], standardFeeCents: 990, cashOnDeliveryFeeCents: 450 };
  expect(quoteDeliveries(changed, { postcode: "80011", allLinesFreeShipping: false })[0]!.available).toBe(true);
  expect(quoteDeliveries(changed, { postcode: "00100", allLinesFreeShipping: false })[2]!.feeCents).toBe(990);
  expect(paymentFeeCents(changed, "cash_on_delivery")).toBe(450);
  expect(paymentFeeCents(changed, "card")).toBe(0);
  expect(paymentFeeCents(defaultSettings.delivery, "bank_transfer")).toBe(0);
});

test("cash on delivery only with home delivery, pay in shop only with collection", () => {
  expect(allowedPaymentMethods("local_delivery")).toEqual(["card", "cash_on_delivery", "bank_transfer"]);
  expect(allowedPaymentMethods("standard")).toEqual(["card", "cash_on_delivery", "bank_transfer"]);
  expect(allowedPaymentMethods("collection")).toEqual(["card", "bank_transfer", "in_shop"]);
});

test("when nobody takes cards, card is not offered and the other methods still are", () => {
  expect(allowedPaymentMethods("standard", { cardPayments: false })).toEqual(["cash_on_delivery", "bank_transfer"]);
  expect(allowedPaymentMethods("collection", { cardPayments: false })).toEqual(["bank_transfer", "in_shop"]);
  expect(allowedPaymentMethods("local_delivery", { giftList: true, cardPayments: false })).toEqual(["bank_transfer"]);
});

test("time to pay: card 60 minutes, bank transfer the configured days, on handover no deadline", () => {
  const now = new Date("2026-03-02T10:00:00Z");
  expect(paymentDueAt("card", now, 5)).toEqual(new Date("2026-03-02T11:00:00Z"));
  expect(paymentDueAt("bank_transfer", now, 5)).toEqual(new Date("2026-03-07T10:00:00Z"));
  expect(paymentDueAt("cash_on_delivery", now, 5)).toBeNull();
  expect(paymentDueAt("in_shop", now, 5)).toBeNull();
});
