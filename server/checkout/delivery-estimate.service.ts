import type { Db } from "#server/db/client.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import type { DeliveryCalendar } from "./delivery-estimate";

/** The settings the delivery promise is computed from. */
export async function getDeliveryCalendar(db: Db): Promise<DeliveryCalendar> {
  const { deliveryTimes, shop } = await getSettings(db, ["deliveryTimes", "shop"]);
  return { times: deliveryTimes, openingHours: shop.openingHours };
}
