/**
 * The words of a delivery promise (server/checkout/delivery-estimate.ts computes its days): a message key
 * of `delivery.*` and its values, for pages (`t`) and e-mails alike. Browser-safe.
 */
import type { Locale } from "./locale";
import { addDays, formatShopDay } from "./shop-calendar";

export type EstimatedDays = { method: "standard" | "local_delivery" | "collection"; from: string; to: string };

/** `today` turns a collection into "from today/tomorrow"; without it (an e-mail read later) the day is named. */
export function describeDeliveryEstimate(
  estimate: EstimatedDays,
  locale: Locale,
  today: string | null,
): { key: string; values: Record<string, string> } {
  const from = formatShopDay(estimate.from, locale);
  if (estimate.method === "collection") {
    if (today && estimate.from === today) return { key: "delivery.collectionToday", values: {} };
    if (today && estimate.from === addDays(today, 1)) return { key: "delivery.collectionTomorrow", values: {} };
    return { key: "delivery.collectionFrom", values: { day: from } };
  }
  if (estimate.from === estimate.to) return { key: "delivery.estimateOn", values: { day: from } };
  return { key: "delivery.estimate", values: { from, to: formatShopDay(estimate.to, locale) } };
}
