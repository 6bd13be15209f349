import { expect, test } from "vitest";
import { exchangeNote, readHistoryNote } from "#common/order-history.ts";
import { checkExchangeChoices, isExchangeable, type ExchangeOption } from "./exchange";

const line = {
  id: "a",
  quantity: 2,
  variantId: 1,
  personalisation: {},
  personalisationUnitCents: 0,
  productId: 7,
  bundleLineId: null,
  giftListItemId: null,
};
const sixMonths: ExchangeOption = { variantId: 2, sku: "BODY-6M", colour: "white", size: "6 mesi", stock: 3 };

test("only a product's own line that could be withdrawn may be exchanged", () => {
  expect(isExchangeable(line)).toBe(true);
  expect(isExchangeable({ ...line, personalisation: { Nome: "Sofia" } })).toBe(false);
  expect(isExchangeable({ ...line, bundleLineId: "b" })).toBe(false);
  expect(isExchangeable({ ...line, giftListItemId: "g" })).toBe(false);
  expect(isExchangeable({ ...line, productId: null })).toBe(false);
});

test("a choice swaps every unit of a returned line for one of its options, when the shelf has them", () => {
  const options = new Map([["a", [sixMonths]]]);
  const returned = [{ orderLineId: "a", quantity: 2 }];
  expect(checkExchangeChoices(returned, options, [{ orderLineId: "a", variantId: 2 }])).toEqual({
    ok: true,
    exchanges: [{ orderLineId: "a", quantity: 2, option: sixMonths }],
  });
  expect(checkExchangeChoices(returned, options, [])).toEqual({ ok: true, exchanges: [] });
  expect(checkExchangeChoices([{ orderLineId: "a", quantity: 4 }], options, [{ orderLineId: "a", variantId: 2 }])).toEqual({
    ok: false,
    error: "exchange-unavailable",
  });
  // not a returned line, not an option, the same line twice
  expect(checkExchangeChoices([], options, [{ orderLineId: "a", variantId: 2 }])).toEqual({ ok: false, error: "exchange-not-offered" });
  expect(checkExchangeChoices(returned, options, [{ orderLineId: "a", variantId: 9 }])).toEqual({ ok: false, error: "exchange-not-offered" });
  expect(
    checkExchangeChoices(returned, options, [
      { orderLineId: "a", variantId: 2 },
      { orderLineId: "a", variantId: 2 },
    ]),
  ).toEqual({ ok: false, error: "exchange-not-offered" });
});

test("the exchange's history notes read back with their return and order numbers", () => {
  expect(readHistoryNote(exchangeNote({ step: "exchange-released", returnNumber: 3 }))).toEqual({
    code: "exchange",
    step: "exchange-released",
    returnNumber: 3,
    orderNumber: null,
  });
  expect(readHistoryNote(exchangeNote({ step: "exchange-sent", returnNumber: 3, orderNumber: 1042 }))).toMatchObject({ orderNumber: 1042 });
});
