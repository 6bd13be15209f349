import { useTranslation } from "react-i18next";
import { formatOpeningSlots, groupOpeningHours, type WeeklyOpeningHours } from "#common/opening-hours.ts";

/** "Lunedì - Sabato 09:30-13:00, 16:30-20:00" / "Domenica chiuso", from the settings. */
export function OpeningHoursList({ hours, className = "" }: { hours: WeeklyOpeningHours; className?: string }) {
  const { t } = useTranslation();
  return (
    <dl className={`space-y-1 ${className}`}>
      {groupOpeningHours(hours).map((range) => (
        <div key={range.firstDay} className="flex flex-wrap gap-x-2">
          <dt className="font-semibold">
            {range.firstDay === range.lastDay
              ? t(`weekdays.${range.firstDay}`)
              : t("openingHours.dayRange", { from: t(`weekdays.${range.firstDay}`), to: t(`weekdays.${range.lastDay}`) })}
          </dt>
          <dd>{range.slots.length > 0 ? formatOpeningSlots(range.slots) : t("openingHours.closed")}</dd>
        </div>
      ))}
    </dl>
  );
}
