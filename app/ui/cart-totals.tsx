import type { OrderSummary } from "#common/order-summary.ts";
import { OrderSummaryRows } from "./order-summary-rows";
import { useFormatPrice } from "./price";

/** A cart's or saved basket's summary as the server computed it (subtotal, offers, a discount code, personalisation) and its total. */
export function CartTotalsList({ summary }: { summary: OrderSummary }) {
  const format = useFormatPrice();
  return <OrderSummaryRows summary={summary} format={format} testIdPrefix="cart" className="mt-4" />;
}
