import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Locale } from "#common/locale.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";

export type WithdrawalSummary = {
  window: { state: "open"; closesAt: Date | null } | { state: "not-yet" } | { state: "closed"; closesAt: Date | null };
  isOffered: boolean;
  /** An exchange's replacement order (docs/decisions/0105-exchanges.md). */
  isReplacement: boolean;
  statements: number;
  href: string;
};

/** The order's right of withdrawal: the "Recedi dal contratto" button while it lasts, or why it is not offered. */
export function WithdrawalPanel({ withdrawal, locale }: { withdrawal: WithdrawalSummary; locale: Locale }) {
  const { t } = useTranslation();
  const period = withdrawal.window;
  // An order let go before it was handed over has nothing to withdraw from.
  if (period.state === "closed" && !period.closesAt && withdrawal.statements === 0) return null;
  const text = withdrawal.isReplacement
    ? t("afterSales.orderPanel.replacement")
    : period.state === "not-yet"
      ? t("afterSales.orderPanel.notYet")
      : period.state === "closed"
        ? t("afterSales.orderPanel.closed")
        : !withdrawal.isOffered
          ? t("afterSales.orderPanel.allWithdrawn")
          : period.closesAt
            ? t("afterSales.orderPanel.openUntil", { date: formatShopDateTime(period.closesAt, locale, { dateStyle: "long" }) })
            : t("afterSales.orderPanel.openBeforeStart");
  return (
    <section aria-labelledby="withdrawal-title" className="rounded-2xl bg-white p-5 shadow-card sm:p-6">
      <h2 id="withdrawal-title" className="text-xl font-bold">
        {t("afterSales.orderPanel.title")}
      </h2>
      <p className="mt-3">{text}</p>
      {withdrawal.statements > 0 && (
        <p className="mt-2 text-sm text-muted">{t("afterSales.orderPanel.statements", { count: withdrawal.statements })}</p>
      )}
      {withdrawal.isOffered && (
        <Link to={withdrawal.href} className="btn-primary mt-4">
          {t("afterSales.withdraw")}
        </Link>
      )}
    </section>
  );
}
