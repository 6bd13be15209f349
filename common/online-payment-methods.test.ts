import { expect, test } from "vitest";
import { isOnlineMethodOffered, offersOnlinePayments, onlineMethodOffers, type OnlinePaymentSettings } from "./online-payment-methods";

const off = { enabled: false, minCents: null, maxCents: null };
const settings: OnlinePaymentSettings = {
  card: { enabled: true, minCents: null, maxCents: null },
  paypal: off,
  satispay: { enabled: true, minCents: null, maxCents: 5000 },
  klarna: { enabled: true, minCents: 3500, maxCents: 400_000 },
  sepa_debit: off,
  scalapay: off,
};

test("only the methods turned on are offered, each available when the total is within its limits (limits included)", () => {
  expect(onlineMethodOffers(settings, 3499).map((offer) => [offer.method, offer.available, offer.reason])).toEqual([
    ["card", true, null],
    ["satispay", true, null],
    ["klarna", false, "below-minimum"],
  ]);
  expect(isOnlineMethodOffered(settings, "klarna", 3500)).toBe(true);
  expect(isOnlineMethodOffered(settings, "klarna", 400_000)).toBe(true);
  expect(isOnlineMethodOffered(settings, "klarna", 400_001)).toBe(false);
  expect(isOnlineMethodOffered(settings, "satispay", 5001)).toBe(false);
  expect(onlineMethodOffers(settings, 5001).find((offer) => offer.method === "satispay")?.reason).toBe("above-maximum");
  expect(isOnlineMethodOffered(settings, "paypal", 1000)).toBe(false);
});

test("a shop with every method off takes nothing online", () => {
  expect(offersOnlinePayments(settings)).toBe(true);
  expect(offersOnlinePayments({ ...settings, card: off, satispay: off, klarna: off })).toBe(false);
});

test("Scalapay's pay in 3 is offered within its limits only", () => {
  const withScalapay = { ...settings, scalapay: { enabled: true, minCents: 500, maxCents: 200_000 } };
  expect(isOnlineMethodOffered(withScalapay, "scalapay", 499)).toBe(false);
  expect(isOnlineMethodOffered(withScalapay, "scalapay", 500)).toBe(true);
  expect(isOnlineMethodOffered(withScalapay, "scalapay", 200_000)).toBe(true);
  expect(onlineMethodOffers(withScalapay, 200_001).find((offer) => offer.method === "scalapay")?.reason).toBe("above-maximum");
});
