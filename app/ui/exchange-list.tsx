import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { variantLabel } from "#common/variant-label.ts";

/** An exchange as the order page and the back office show it (server/after-sales/exchanges.service.ts's ExchangeView). */
export type ExchangeItem = {
  orderLineId: string;
  quantity: number;
  from: { sku: string; colour: string | null; size: string | null };
  to: { sku: string; colour: string | null; size: string | null };
  status: "reserved" | "released" | "fulfilled";
  replacement: { id: string; number: number } | null;
};

/** "Cambio: Body: Bianco · M → Bianco · L (2 pezzi) · messo da parte", with the replacement order's link once it exists. */
export function ExchangeList({
  exchanges,
  name,
  orderHref,
}: {
  exchanges: readonly ExchangeItem[];
  name: (orderLineId: string) => string;
  orderHref: (id: string) => string;
}) {
  const { t } = useTranslation();
  if (exchanges.length === 0) return null;
  const label = (variant: ExchangeItem["from"]) => variantLabel(t, variant) || variant.sku;
  return (
    <ul className="mt-2 space-y-1" data-testid="exchanges">
      {exchanges.map((exchange) => (
        <li key={exchange.orderLineId} data-testid="exchange">
          <span className="font-semibold">{t("exchanges.list.title")}:</span>{" "}
          {t("exchanges.list.line", {
            name: name(exchange.orderLineId),
            from: label(exchange.from),
            to: label(exchange.to),
            count: exchange.quantity,
          })}{" "}
          · <span data-testid="exchange-status">{t(`exchanges.list.status.${exchange.status}`)}</span>
          {exchange.replacement && (
            <>
              {" "}
              ·{" "}
              <Link to={orderHref(exchange.replacement.id)} className="link" data-testid="replacement-link">
                {t("exchanges.list.replacement", { number: exchange.replacement.number })}
              </Link>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
