import { expect, test } from "vitest";
import { takesStockAlert } from "#common/variant-selection.ts";
import { isBackInStock, planStockAlertRequest, selectionSearchOf } from "./stock-alerts";

const now = new Date("2026-11-20T18:00:00Z");
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

test("only a variant going from nothing to something is back in stock", () => {
  expect(isBackInStock(0, 1)).toBe(true);
  expect(isBackInStock(0, 40)).toBe(true);
  expect(isBackInStock(2, 3)).toBe(false);
  expect(isBackInStock(3, 0)).toBe(false);
  expect(isBackInStock(0, 0)).toBe(false);
});

test("an alert is offered on a sold-out colour and size, never on one in stock or sold as a pre-order", () => {
  expect(takesStockAlert({ stock: 0, isPreorder: false })).toBe(true);
  expect(takesStockAlert({ stock: 1, isPreorder: false })).toBe(false);
  expect(takesStockAlert({ stock: 0, isPreorder: true })).toBe(false);
});

test("asking again: a guest's pending alert is mailed again only after 10 minutes; a confirmed click activates; an active alert stays quiet", () => {
  expect(planStockAlertRequest(null, { confirmed: false, now })).toBe("create-pending");
  expect(planStockAlertRequest(null, { confirmed: true, now })).toBe("create-active");
  expect(planStockAlertRequest({ status: "pending", lastMailAt: ago(3) }, { confirmed: false, now })).toBe("quiet");
  expect(planStockAlertRequest({ status: "pending", lastMailAt: ago(11) }, { confirmed: false, now })).toBe("resend");
  expect(planStockAlertRequest({ status: "pending", lastMailAt: ago(3) }, { confirmed: true, now })).toBe("activate");
  expect(planStockAlertRequest({ status: "active", lastMailAt: null }, { confirmed: false, now })).toBe("quiet");
  expect(planStockAlertRequest({ status: "active", lastMailAt: null }, { confirmed: true, now })).toBe("quiet");
});

test("the mail's link opens the product page on the alert's colour and size; one size and no colour are left out", () => {
  expect(selectionSearchOf({ colour: "blue", size: "M" })).toBe("?colour=blue&size=M");
  expect(selectionSearchOf({ colour: "white", size: "TAGLIA_UNICA" })).toBe("?colour=white");
  expect(selectionSearchOf({ colour: null, size: "0-3 mesi" })).toBe("?size=0-3+mesi");
  expect(selectionSearchOf({ colour: null, size: "TAGLIA_UNICA" })).toBe("");
});
