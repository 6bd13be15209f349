import type { Db } from "#server/db/client.ts";
import { getShownSettings } from "#server/settings/settings.service.ts";
import { deliveryCalendarKeys, deliveryCalendarOf, type DeliveryCalendar } from "./delivery-estimate";

/** The settings the delivery promise is computed from, as the pages show it. */
export async function getDeliveryCalendar(db: Db): Promise<DeliveryCalendar> {
  return deliveryCalendarOf(await getShownSettings(db, deliveryCalendarKeys));
}
