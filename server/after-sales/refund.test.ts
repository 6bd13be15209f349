import { expect, test } from "vitest";
import { checkRefund, paidPerLine, refundRetryDelayMs, splitRefundByMeans, suggestedRefundCents } from "./refund";

const lines = [
  { id: "a", quantity: 2, lineTotalCents: 2000 },
  { id: "b", quantity: 1, lineTotalCents: 1001 },
];

test("a discount code's saving is shared by the lines, the rounding rest on the last", () => {
  expect(paidPerLine(lines, 0)).toEqual(
    new Map([
      ["a", 2000],
      ["b", 1001],
    ]),
  );
  expect(paidPerLine(lines, 300)).toEqual(
    new Map([
      ["a", 1801],
      ["b", 900],
    ]),
  );
  expect(suggestedRefundCents(1801, 2, 1, 1801)).toBe(901);
  expect(suggestedRefundCents(1801, 2, 2, 1000)).toBe(1000);
});

test("never more than paid per line or in all; the delivery only when allowed", () => {
  const facts = {
    paid: paidPerLine(lines, 0),
    refundedPerLine: new Map([["a", 1500]]),
    refundedTotalCents: 1500,
    orderTotalCents: 3691,
    returnLineIds: new Set(["a", "b"]),
    deliveryRefundable: false,
    shippingCents: 690,
  };
  expect(checkRefund(facts, { lines: [{ orderLineId: "a", amountCents: 501 }], includeDelivery: false })).toEqual({ ok: false, error: "over-paid" });
  expect(checkRefund(facts, { lines: [{ orderLineId: "a", amountCents: 500 }], includeDelivery: true })).toEqual({
    ok: false,
    error: "delivery-not-allowed",
  });
  expect(checkRefund(facts, { lines: [{ orderLineId: "a", amountCents: -1 }], includeDelivery: false })).toEqual({
    ok: false,
    error: "bad-quantities",
  });
  expect(
    checkRefund(facts, {
      lines: [
        { orderLineId: "a", amountCents: 500 },
        { orderLineId: "b", amountCents: 1001 },
      ],
      includeDelivery: false,
    }),
  ).toEqual({
    ok: true,
    amountCents: 1501,
    deliveryCents: 0,
    lines: [
      { orderLineId: "a", amountCents: 500 },
      { orderLineId: "b", amountCents: 1001 },
    ],
  });
  const whole = { ...facts, deliveryRefundable: true, orderTotalCents: 1500 + 1501 + 689 };
  expect(
    checkRefund(whole, {
      lines: [
        { orderLineId: "a", amountCents: 500 },
        { orderLineId: "b", amountCents: 1001 },
      ],
      includeDelivery: true,
    }),
  ).toEqual({
    ok: false,
    error: "over-paid",
  });
});

test("a failed card refund is tried again after 1, 2, 4 ... minutes, at most an hour", () => {
  expect([1, 2, 3, 7, 20].map(refundRetryDelayMs)).toEqual([60_000, 120_000, 240_000, 3_600_000, 3_600_000]);
});

test("a refund goes back to the other payment first, up to what it paid and has not had back; the rest to the gift card", () => {
  const order = { orderTotalCents: 6690, orderGiftCardCents: 2000 };
  expect(splitRefundByMeans({ ...order, amountCents: 2500, refundedCents: 0, refundedToGiftCardCents: 0 })).toEqual({
    otherCents: 2500,
    giftCardCents: 0,
  });
  expect(splitRefundByMeans({ ...order, amountCents: 4190, refundedCents: 2500, refundedToGiftCardCents: 0 })).toEqual({
    otherCents: 2190,
    giftCardCents: 2000,
  });
  // The gift card paid it all: everything back on the card.
  expect(
    splitRefundByMeans({ amountCents: 990, orderTotalCents: 990, orderGiftCardCents: 990, refundedCents: 0, refundedToGiftCardCents: 0 }),
  ).toEqual({
    otherCents: 0,
    giftCardCents: 990,
  });
});
