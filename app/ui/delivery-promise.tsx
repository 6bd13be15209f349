import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { describeDeliveryEstimate, type EstimatedDays } from "#common/delivery-promise.ts";
import { localeOfPath } from "#common/locale.ts";

/** The days a loader computed (server/checkout/delivery-estimate.ts); null where no promise can be made. */
export type DeliveryPromiseData = { today: string; standard: EstimatedDays | null; collection: EstimatedDays | null };

/** One promise line: "Consegna stimata: mar 1 dic – mer 2 dic" or "Ritiro in negozio da domani". */
export function DeliveryEstimateText({ estimate, today }: { estimate: EstimatedDays; today: string | null }) {
  const { t } = useTranslation();
  const { key, values } = describeDeliveryEstimate(estimate, localeOfPath(useLocation().pathname), today);
  return <>{t(key, values)}</>;
}

/** Under the availability line (product page) and in the cart: by courier, and from the shop counter. */
export function DeliveryPromise({ promise, className = "" }: { promise: DeliveryPromiseData; className?: string }) {
  if (!promise.standard && !promise.collection) return null;
  return (
    <ul className={`flex flex-col gap-0.5 text-sm font-semibold text-brand-800 ${className}`} data-testid="delivery-promise">
      {promise.standard && (
        <li>
          <DeliveryEstimateText estimate={promise.standard} today={promise.today} />
        </li>
      )}
      {promise.collection && (
        <li>
          <DeliveryEstimateText estimate={promise.collection} today={promise.today} />
        </li>
      )}
    </ul>
  );
}
