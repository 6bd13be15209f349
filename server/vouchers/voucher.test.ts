import { expect, test } from "vitest";
import { giftCardCodeFromSeed, normaliseGiftCardCode } from "#server/gift-cards/gift-card.ts";
import {
  deliverDayRange,
  fundProgressPercent,
  isDeliverDayAllowed,
  isFundContributionAllowed,
  isGiftCardAmountAllowed,
  voucherTotalCents,
} from "./voucher";

const settings = { presetCents: [2500, 5000], minCents: 1000, maxCents: 30_000 };

test("a free amount within the shop's range, or a preset", () => {
  expect(isGiftCardAmountAllowed(2500, settings)).toBe(true);
  expect(isGiftCardAmountAllowed(999, settings)).toBe(false);
  expect(isGiftCardAmountAllowed(30_001, settings)).toBe(false);
  expect(isGiftCardAmountAllowed(1234.5, settings)).toBe(false);
  expect(isFundContributionAllowed(500)).toBe(true);
  expect(isFundContributionAllowed(499)).toBe(false);
});

test("the mail's day: from today to a year on (29 February to the 28th)", () => {
  expect(deliverDayRange("2026-03-02")).toEqual({ first: "2026-03-02", last: "2027-03-02" });
  expect(deliverDayRange("2028-02-29").last).toBe("2029-02-28");
  expect(isDeliverDayAllowed("2026-03-01", "2026-03-02")).toBe(false);
  expect(isDeliverDayAllowed("2027-03-03", "2026-03-02")).toBe(false);
});

test("totals, progress, and a code made from a seed is a valid card code", () => {
  expect(voucherTotalCents([{ amountCents: 2500 }, { amountCents: 1000 }])).toBe(3500);
  expect(fundProgressPercent(5500, 30_000)).toBe(18);
  expect(fundProgressPercent(40_000, 30_000)).toBe(100);
  expect(fundProgressPercent(100, null)).toBeNull();
  const code = giftCardCodeFromSeed(new Uint8Array(32).fill(255));
  expect(normaliseGiftCardCode(code)).not.toBeNull();
});
