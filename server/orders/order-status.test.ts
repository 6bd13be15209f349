import { expect, test } from "vitest";
import { canChangeStatus, canMove, nextStatuses, returnsStockOn } from "./order-status";

const card = { deliveryMethod: "standard", paymentMethod: "card" } as const;
const collectionInShop = { deliveryMethod: "collection", paymentMethod: "in_shop" } as const;
const cashOnDelivery = { deliveryMethod: "local_delivery", paymentMethod: "cash_on_delivery" } as const;

test("a card order: paid, preparing, shipped, completed", () => {
  expect(nextStatuses("awaiting_payment", card)).toEqual(["paid", "cancelled"]);
  expect(canChangeStatus("paid", "preparing", card)).toBe(true);
  expect(canChangeStatus("preparing", "shipped", card)).toBe(true);
  expect(canChangeStatus("preparing", "ready_for_collection", card)).toBe(false);
  expect(canChangeStatus("shipped", "completed", card)).toBe(true);
  expect(canChangeStatus("awaiting_payment", "shipped", card)).toBe(false);
});

test("collection: ready for collection instead of shipped", () => {
  expect(nextStatuses("preparing", collectionInShop)).toEqual(["ready_for_collection", "cancelled"]);
  expect(canChangeStatus("ready_for_collection", "completed", collectionInShop)).toBe(true);
});

test("paid on handover: prepared while still awaiting payment", () => {
  expect(canChangeStatus("awaiting_payment", "preparing", cashOnDelivery)).toBe(true);
  expect(canChangeStatus("awaiting_payment", "preparing", card)).toBe(false);
});

test("final statuses go nowhere (refunds aside)", () => {
  for (const status of ["cancelled", "expired", "refunded"] as const) expect(nextStatuses(status, card)).toEqual([]);
  expect(nextStatuses("completed", card)).toEqual(["refunded"]);
});

test("stock comes back only from statuses that still hold it", () => {
  expect(returnsStockOn("awaiting_payment", "expired")).toBe(true);
  expect(returnsStockOn("paid", "cancelled")).toBe(true);
  expect(returnsStockOn("shipped", "refunded")).toBe(false);
  expect(returnsStockOn("paid", "preparing")).toBe(false);
});

test("the shop's own moves: money, late money, the deadline, a funded group gift's contributions", () => {
  expect(canMove("awaiting_payment", "paid", card, "paid")).toBe(true);
  expect(canMove("expired", "paid", card, "paid")).toBe(false);
  expect(canMove("expired", "paid", card, "paid-late")).toBe(true);
  expect(canMove("cancelled", "paid", card, "paid-late")).toBe(true);
  expect(canMove("awaiting_payment", "expired", card, "expired")).toBe(true);
  expect(canMove("paid", "expired", card, "expired")).toBe(false);
  // Only a gift-list order's contribution is completed by its gift; the back office cannot skip to completed.
  expect(canMove("paid", "completed", { ...card, giftListId: "list" }, "group-gift-funded")).toBe(true);
  expect(canMove("paid", "completed", card, "group-gift-funded")).toBe(false);
  expect(canMove("paid", "completed", { ...card, giftListId: "list" }, "workflow")).toBe(false);
  expect(canMove("paid", "preparing", card, "workflow")).toBe(true);
});
