import { expect, test } from "vitest";
import { orderTotals } from "./checkout";

test("totals: discounted goods, personalisation per unit, shipping and fee, in cents", () => {
  const totals = orderTotals(
    [
      { variantId: 1, quantity: 2, listUnitCents: 1999, unitCents: 1799, personalisationUnitCents: 250 },
      { variantId: 2, quantity: 1, listUnitCents: 4990, unitCents: 4990, personalisationUnitCents: 0 },
    ],
    { shippingCents: 690, paymentFeeCents: 300 },
  );
  expect(totals).toEqual({
    subtotalCents: 1799 * 2 + 4990,
    discountCents: 400,
    personalisationCents: 500,
    shippingCents: 690,
    paymentFeeCents: 300,
    voucherCents: 0,
    totalCents: 1799 * 2 + 4990 + 500 + 690 + 300,
  });
});

test("totals: a gift card bought with the goods adds to the total, not to the goods", () => {
  const totals = orderTotals([{ variantId: 1, quantity: 1, listUnitCents: 2000, unitCents: 2000, personalisationUnitCents: 0 }], {
    shippingCents: 0,
    paymentFeeCents: 0,
    voucherCents: 5000,
  });
  expect(totals).toMatchObject({ subtotalCents: 2000, discountCents: 0, voucherCents: 5000, totalCents: 7000 });
});
