import { expect, test } from "vitest";
import { checkWithdrawalLines, daysLeft, lineExclusion, withdrawalWindow } from "./withdrawal";

const settings = { withdrawalDays: 14, homeDeliveryStart: "delivered", collectionStart: "ordered" } as const;
const createdAt = new Date("2026-11-02T10:00:00Z");

test("the period runs 14 days from delivery, to the end of the last day in Italy", () => {
  const delivered = {
    status: "completed",
    deliveryMethod: "standard",
    createdAt,
    shippedAt: createdAt,
    completedAt: new Date("2026-11-05T15:00:00Z"),
  } as const;
  const open = withdrawalWindow(delivered, settings, new Date("2026-11-19T22:30:00Z"));
  expect(open).toEqual({ state: "open", startsAt: delivered.completedAt, closesAt: new Date("2026-11-19T22:59:59Z") });
  expect(withdrawalWindow(delivered, settings, new Date("2026-11-19T23:00:00Z")).state).toBe("closed");
  // from the shipment, when the shop says so
  expect(withdrawalWindow(delivered, { ...settings, homeDeliveryStart: "shipped" }, new Date("2026-11-17T12:00:00Z")).state).toBe("closed");
});

test("collection counts from the order; before the goods leave the shop nothing is offered", () => {
  const collected = {
    status: "completed",
    deliveryMethod: "collection",
    createdAt,
    shippedAt: null,
    completedAt: new Date("2026-11-20T10:00:00Z"),
  } as const;
  expect(withdrawalWindow(collected, settings, new Date("2026-11-20T12:00:00Z")).state).toBe("closed");
  expect(withdrawalWindow(collected, { ...settings, collectionStart: "collected" }, new Date("2026-11-20T12:00:00Z")).state).toBe("open");
  expect(withdrawalWindow({ ...collected, status: "paid" }, settings, createdAt)).toEqual({ state: "not-yet" });
  expect(withdrawalWindow({ ...collected, status: "cancelled" }, settings, createdAt)).toEqual({ state: "closed", closesAt: null });
});

test("personalised lines and lines without goods are excluded; quantities count earlier statements", () => {
  expect(lineExclusion({ id: "a", quantity: 1, variantId: 1, personalisation: { Nome: "Sofia" }, personalisationUnitCents: 300 })).toBe(
    "personalised",
  );
  expect(lineExclusion({ id: "a", quantity: 1, variantId: null, personalisation: {}, personalisationUnitCents: 0 })).toBe("not-goods");
  const lines = [
    { id: "a", quantity: 2, exclusion: null },
    { id: "b", quantity: 1, exclusion: "personalised" as const },
  ];
  const before = new Map([["a", 1]]);
  expect(checkWithdrawalLines(lines, before, [{ orderLineId: "a", quantity: 2 }])).toEqual({ ok: false, error: "more-than-bought" });
  expect(checkWithdrawalLines(lines, before, [{ orderLineId: "b", quantity: 1 }])).toEqual({ ok: false, error: "excluded-line" });
  expect(
    checkWithdrawalLines(lines, before, [
      { orderLineId: "a", quantity: 1 },
      { orderLineId: "a", quantity: 1 },
    ]),
  ).toEqual({ ok: false, error: "unknown-line" });
  expect(checkWithdrawalLines(lines, new Map([["a", 2]]), [{ orderLineId: "a", quantity: 1 }])).toEqual({ ok: false, error: "already-withdrawn" });
  expect(
    checkWithdrawalLines(lines, before, [
      { orderLineId: "a", quantity: 1 },
      { orderLineId: "b", quantity: 0 },
    ]),
  ).toEqual({ ok: true, lines: [{ orderLineId: "a", quantity: 1 }] });
});

test("the countdown counts Italian calendar days", () => {
  const due = new Date("2026-12-10T22:59:59Z");
  expect(daysLeft(due, new Date("2026-11-26T09:00:00Z"))).toBe(14);
  expect(daysLeft(due, new Date("2026-12-10T20:00:00Z"))).toBe(0);
  expect(daysLeft(due, new Date("2026-12-12T09:00:00Z"))).toBe(-2);
});
