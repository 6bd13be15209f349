import type { Db } from "#server/db/client.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { deliveryCalendarKeys, deliveryCalendarOf, type DeliveryCalendar } from "./delivery-estimate";

/** The settings the delivery promise is computed from. */
export async function getDeliveryCalendar(db: Db): Promise<DeliveryCalendar> {
  return deliveryCalendarOf(await getSettings(db, deliveryCalendarKeys));
}
