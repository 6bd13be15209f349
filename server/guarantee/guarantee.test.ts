import { expect, test } from "vitest";
import { guaranteeEndsAt, isWithinGuarantee, nextClaimStatuses } from "./guarantee";

test("the guarantee ends 26 months after delivery, on the month's last day when it has no such day", () => {
  expect(guaranteeEndsAt(new Date("2026-03-15T10:00:00Z")).toISOString()).toBe("2028-05-15T10:00:00.000Z");
  expect(guaranteeEndsAt(new Date("2025-12-31T09:00:00Z")).toISOString()).toBe("2028-02-29T09:00:00.000Z");
  expect(guaranteeEndsAt(new Date("2026-12-31T09:00:00Z")).toISOString()).toBe("2029-02-28T09:00:00.000Z");
});

test("a fault reported on the last day is in time, the next day it is not", () => {
  const delivered = new Date("2026-03-15T10:00:00Z");
  expect(isWithinGuarantee(delivered, new Date("2028-05-15T10:00:00Z"))).toBe(true);
  expect(isWithinGuarantee(delivered, new Date("2028-05-16T09:00:00Z"))).toBe(false);
});

test("a claim is examined, a remedy is decided, then it is closed; a closed claim goes nowhere", () => {
  expect(nextClaimStatuses("received")).toEqual(["in_review", "closed"]);
  expect(nextClaimStatuses("in_review")).toEqual(["repair", "replacement", "refund", "closed"]);
  expect(nextClaimStatuses("replacement")).toEqual(["closed"]);
  expect(nextClaimStatuses("closed")).toEqual([]);
});
