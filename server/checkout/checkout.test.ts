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
    totalCents: 1799 * 2 + 4990 + 500 + 690 + 300,
  });
});
