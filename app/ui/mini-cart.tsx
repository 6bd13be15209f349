import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, type Locale } from "#app/lib/locale.ts";
import { CountBadge } from "./count-badge";
import { BagIcon } from "./icons";
import { useDisclosure } from "./use-disclosure";

/** The cart icon and its dropdown; the cart issue fills the lines in. */
export function MiniCart({ count, locale }: { count: number; locale: Locale }) {
  const { t } = useTranslation();
  const { detailsProps, summaryProps } = useDisclosure();
  return (
    <details {...detailsProps} className="relative">
      <summary {...summaryProps} className="relative grid size-11 place-items-center rounded-full hover:bg-brand-50">
        <BagIcon />
        <CountBadge count={count} />
        <span className="sr-only">{t("miniCart.label", { count })}</span>
      </summary>
      <div className="absolute right-0 z-40 mt-2 w-72 rounded-2xl border border-brand-100 bg-white p-4 shadow-card">
        <p className="font-bold">{t("miniCart.title")}</p>
        {count === 0 && <p className="mt-2 text-muted">{t("miniCart.empty")}</p>}
        <Link to={localizedHref("/cart", locale)} className="btn-primary mt-4 w-full">
          {t("miniCart.viewCart")}
        </Link>
      </div>
    </details>
  );
}
