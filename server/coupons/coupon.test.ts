import { expect, test } from "vitest";
import { sumCents } from "#server/money.ts";
import { applyCoupon, completionDiscount, shareDiscount, type CouponLine, type CouponOrder, type CouponTerms } from "./coupon";

const terms = (overrides: Partial<CouponTerms> = {}): CouponTerms => ({
  id: 1,
  code: "BENVENUTO10",
  kind: "percent",
  percent: 10,
  amountCents: null,
  minOrderCents: 0,
  validFrom: new Date("2026-11-01T00:00:00Z"),
  validUntil: new Date("2026-12-01T00:00:00Z"),
  maxUses: null,
  usedCount: 0,
  maxUsesPerCustomer: null,
  combinesWithFreeDelivery: true,
  appliesToGiftLists: false,
  isActive: true,
  categoryIds: [],
  brandIds: [],
  completion: null,
  ...overrides,
});

const line = (overrides: Partial<CouponLine> = {}): CouponLine => ({
  variantId: 1,
  quantity: 1,
  unitCents: 1000,
  categoryIds: [1],
  brandIds: [10],
  ...overrides,
});

const order = (overrides: Partial<CouponOrder> = {}): CouponOrder => ({
  now: new Date("2026-11-15T12:00:00Z"),
  userId: "u1",
  isGiftListCart: false,
  shipsFree: false,
  customerUses: 0,
  ...overrides,
});

test("a percent code takes its percent of the goods once and shares it over the lines to the cent", () => {
  const outcome = applyCoupon(
    terms({ percent: 15 }),
    [line({ unitCents: 333 }), line({ variantId: 2, unitCents: 333 }), line({ variantId: 3, unitCents: 334 })],
    order(),
  );
  // 15% of 10.00 = 1.50, shared 333:333:334 -> 49.95, 49.95, 50.1 -> 50 / 50 / 50 by largest remainder.
  expect(outcome).toEqual({ ok: true, discountCents: 150, perLineCents: [50, 50, 50] });
});

test("a fixed code takes its amount, never more than the goods it applies to", () => {
  expect(applyCoupon(terms({ kind: "fixed", percent: null, amountCents: 500 }), [line({ quantity: 2 }), line({ unitCents: 1000 })], order())).toEqual(
    {
      ok: true,
      discountCents: 500,
      perLineCents: [333, 167],
    },
  );
  expect(applyCoupon(terms({ kind: "fixed", percent: null, amountCents: 5000 }), [line({ unitCents: 1999 })], order())).toEqual({
    ok: true,
    discountCents: 1999,
    perLineCents: [1999],
  });
});

test("a code limited to categories or brands discounts only their lines", () => {
  const lines = [
    line({ unitCents: 2000, categoryIds: [1], brandIds: [10] }),
    line({ variantId: 2, unitCents: 3000, categoryIds: [2], brandIds: [11] }),
  ];
  expect(applyCoupon(terms({ categoryIds: [2] }), lines, order())).toEqual({ ok: true, discountCents: 300, perLineCents: [0, 300] });
  expect(applyCoupon(terms({ brandIds: [10] }), lines, order())).toEqual({ ok: true, discountCents: 200, perLineCents: [200, 0] });
  expect(applyCoupon(terms({ categoryIds: [2], brandIds: [10] }), lines, order())).toEqual({ ok: false, error: "not-for-these-items" });
});

test("the refusals say why: dates, uses, the customer's own uses, the minimum, gift lists, free delivery", () => {
  const lines = [line({ unitCents: 2500 })];
  expect(applyCoupon(terms({ isActive: false }), lines, order())).toEqual({ ok: false, error: "unknown" });
  expect(applyCoupon(terms(), lines, order({ now: new Date("2026-10-31T23:59:59Z") }))).toEqual({ ok: false, error: "not-yet-valid" });
  expect(applyCoupon(terms(), lines, order({ now: new Date("2026-12-01T00:00:00Z") }))).toEqual({ ok: false, error: "expired" });
  expect(applyCoupon(terms({ maxUses: 10, usedCount: 10 }), lines, order())).toEqual({ ok: false, error: "used" });
  expect(applyCoupon(terms({ maxUsesPerCustomer: 1 }), lines, order({ customerUses: 1 }))).toEqual({ ok: false, error: "used-by-you" });
  expect(applyCoupon(terms({ minOrderCents: 3000 }), lines, order())).toEqual({ ok: false, error: "below-minimum", minOrderCents: 3000 });
  expect(applyCoupon(terms({ minOrderCents: 2500 }), lines, order()).ok).toBe(true);
  expect(applyCoupon(terms(), lines, order({ isGiftListCart: true }))).toEqual({ ok: false, error: "gift-list" });
  expect(applyCoupon(terms({ appliesToGiftLists: true }), lines, order({ isGiftListCart: true })).ok).toBe(true);
  expect(applyCoupon(terms({ combinesWithFreeDelivery: false }), lines, order({ shipsFree: true }))).toEqual({ ok: false, error: "free-delivery" });
  // Before a delivery is chosen (the cart) the free delivery is not known yet.
  expect(applyCoupon(terms({ combinesWithFreeDelivery: false }), lines, order({ shipsFree: null })).ok).toBe(true);
  expect(applyCoupon(terms(), lines, order({ shipsFree: true })).ok).toBe(true);
});

test("shares add up to the saving exactly and never pass a line's goods", () => {
  for (const [discount, weights] of [
    [1, [1, 1, 1]],
    [299, [100, 100, 100]],
    [7, [0, 5, 3]],
    [1000, [333, 333, 334]],
  ] as const) {
    const shares = shareDiscount(discount, weights);
    expect(sumCents(shares)).toBe(discount);
    shares.forEach((share, index) => expect(share).toBeLessThanOrEqual(weights[index]!));
  }
  expect(shareDiscount(2, [1, 1, 1])).toEqual([1, 1, 0]);
  expect(() => shareDiscount(5, [2, 2])).toThrow(RangeError);
});

test("a completion code: only its owner, only the list's variants still needed, rounded once per line", () => {
  const stillNeeded = new Map([
    [1, 2],
    [2, 1],
  ]);
  expect(
    completionDiscount(
      [
        line({ variantId: 1, quantity: 3, unitCents: 1999 }), // 2 of 3 units eligible: 3998 -> 10% = 399.8 -> 400
        line({ variantId: 3, unitCents: 5000 }), // not on the list
        line({ variantId: 2, unitCents: 1005 }), // pays 904.5 -> 905 (half up, once): 100 off
      ],
      stillNeeded,
      10,
    ),
  ).toEqual([400, 0, 100]);
  // Two lines of one variant share what is still needed.
  expect(completionDiscount([line({ variantId: 2 }), line({ variantId: 2 })], stillNeeded, 10)).toEqual([100, 0]);
  const completion = terms({ completion: { ownerUserId: "owner", stillNeeded }, maxUses: 1 });
  expect(applyCoupon(completion, [line()], order({ userId: "someone" }))).toEqual({ ok: false, error: "not-yours" });
  expect(applyCoupon(completion, [line()], order({ userId: "owner", isGiftListCart: true }))).toEqual({ ok: false, error: "no-eligible-lines" });
  expect(applyCoupon(completion, [line({ variantId: 3 })], order({ userId: "owner" }))).toEqual({ ok: false, error: "no-eligible-lines" });
  expect(applyCoupon(completion, [line()], order({ userId: "owner" }))).toEqual({ ok: true, discountCents: 100, perLineCents: [100] });
});
