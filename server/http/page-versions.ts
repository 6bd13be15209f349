/**
 * What tells whether a kept visitor's page still holds besides the database's versions (read by
 * `readWatchedVersion`, server/catalog/catalogue-cache.ts, for every change made through any process): changes
 * by the clock alone, namely the next offer end, the delivery promise's cut-off and day, the footer's year.
 */
import { and, gt, min } from "drizzle-orm";
import { addDays, italianDayOf, italianMidnight, italianTimeOf } from "#common/shop-calendar.ts";
import type { Db } from "#server/db/client.ts";
import { products } from "#server/db/schema.ts";
import { getSettings } from "#server/settings/settings.service.ts";

/**
 * The first instant after `now` at which a page may show something else with no change in the database.
 * Read for the whole catalogue, not the page's own products: an ending offer costs each kept page one
 * render more, and the settings' cut-off moves `page_content_version` when it changes.
 */
export async function nextClockChange(db: Db, now: Date): Promise<number> {
  const [[offer], settings] = await Promise.all([
    db
      .select({ endsAt: min(products.offerEndsAt) })
      .from(products)
      .where(and(gt(products.discountPercent, 0), gt(products.offerEndsAt, now))),
    getSettings(db, ["deliveryTimes"]),
  ]);
  const today = italianDayOf(now);
  const changes = [
    // The delivery promise counts from the next working day once the cut-off has passed, and from each new day.
    italianInstantAt(today, settings.deliveryTimes.cutoff),
    italianInstantAt(addDays(today, 1), settings.deliveryTimes.cutoff),
    italianMidnight(addDays(today, 1)),
    // The footer's copyright year, in the server's time zone.
    new Date(now.getFullYear() + 1, 0, 1),
    offer?.endsAt ?? null,
  ];
  return Math.min(...changes.flatMap((instant) => (instant && instant.getTime() > now.getTime() ? [instant.getTime()] : [])));
}

/** The instant an Italian calendar day reads `time` ("HH:MM"); null on the hour a clock change skips. */
function italianInstantAt(isoDate: string, time: string): Date | null {
  for (const offset of ["+01:00", "+02:00"]) {
    const candidate = new Date(`${isoDate}T${time}:00${offset}`);
    if (italianDayOf(candidate) === isoDate && italianTimeOf(candidate) === time) return candidate;
  }
  return null;
}
