import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { OwnerFund, PublicFund } from "#server/vouchers/gift-list-fund.service.ts";
import { TextField } from "./form-field";

function FundProgress({ fund, locale }: { fund: PublicFund; locale: Locale }) {
  const { t } = useTranslation();
  const collected = formatMoney(fund.collectedCents, locale, "EUR");
  return (
    <div className="mt-3">
      {fund.progressPercent !== null && (
        <div
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={fund.progressPercent}
          aria-label={fund.title}
          className="h-3 overflow-hidden rounded-full bg-brand-100"
        >
          <div className="h-full bg-brand-700" style={{ width: `${fund.progressPercent}%` }} />
        </div>
      )}
      <p className="mt-1 text-sm font-semibold">
        {fund.targetCents !== null
          ? t("vouchers.fund.progress", { collected, target: formatMoney(fund.targetCents, locale, "EUR") })
          : t("vouchers.fund.collected", { collected })}
      </p>
    </div>
  );
}

/** A list's funds on its public page: progress and a "Contribuisci" form each (a voucher line in the cart). */
export function PublicGiftListFunds({
  funds,
  isOpen,
  returnTo,
  locale,
}: {
  funds: readonly PublicFund[];
  isOpen: boolean;
  returnTo: string;
  locale: Locale;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="funds-title" data-testid="gift-list-funds">
      <h2 id="funds-title" className="text-2xl font-bold">
        {t("vouchers.fund.title")}
      </h2>
      <p className="mt-1 text-muted">{t("vouchers.fund.cashNote")}</p>
      <ul className="mt-4 grid gap-6 sm:grid-cols-2">
        {funds.map((fund) => (
          <li key={fund.id} className="rounded-3xl bg-white p-6 shadow-card">
            <h3 className="text-xl font-bold">{fund.title}</h3>
            {fund.description && <p className="mt-1 whitespace-pre-line text-muted">{fund.description}</p>}
            <FundProgress fund={fund} locale={locale} />
            {isOpen && (
              <Form
                method="post"
                action={localizedHref("/carta-regalo/acquista", locale)}
                className="mt-4 space-y-3"
                aria-label={t("vouchers.fund.contributeTitle", { fund: fund.title })}
              >
                <input type="hidden" name="intent" value="contribute" />
                <input type="hidden" name="fundId" value={fund.id} />
                <input type="hidden" name="returnTo" value={returnTo} />
                <TextField label={t("vouchers.fund.amount")} name="amount" inputMode="decimal" required hint={t("vouchers.fund.amountHint")} />
                <TextField label={t("vouchers.fund.giverName")} name="senderName" autoComplete="name" required maxLength={100} />
                <TextField multiline rows={2} label={t("vouchers.fund.message")} name="message" maxLength={500} />
                <button type="submit" className="btn-primary">
                  {t("vouchers.fund.contribute")}
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The owner's funds on her list's page: add one, see who gave what, and the card they went onto. */
export function OwnerGiftListFunds({
  funds,
  giftListId,
  action,
  locale,
  errors,
}: {
  funds: readonly (Omit<OwnerFund, "contributions" | "card"> & {
    contributions: { giverName: string; message: string; amountCents: number; at: string | Date }[];
    card: { code: string | null; balanceCents: number; expiresAt: string | Date } | null;
  })[];
  giftListId: string;
  action: string;
  locale: Locale;
  errors?: Partial<Record<string, string>>;
}) {
  const { t } = useTranslation();
  const error = (field: string) => (errors?.[field] ? t(errors[field]) : undefined);
  return (
    <section aria-labelledby={`funds-${giftListId}`} className="mt-6 border-t border-brand-100 pt-4" data-testid="owner-funds">
      <h3 id={`funds-${giftListId}`} className="text-lg font-bold">
        {t("vouchers.fund.ownerTitle")}
      </h3>
      <p className="text-sm text-muted">{t("vouchers.fund.ownerIntro")}</p>
      <p className="text-sm text-muted">{t("vouchers.fund.cashNote")}</p>
      {funds.map((fund) => (
        <div key={fund.id} className="mt-4 rounded-2xl bg-brand-50 p-4">
          <h4 className="font-bold">{fund.title}</h4>
          <FundProgress fund={fund} locale={locale} />
          <p className="mt-2 text-sm">
            {fund.card
              ? [
                  fund.card.code ? t("vouchers.fund.cardCode", { code: fund.card.code }) : "",
                  t("vouchers.fund.cardBalance", {
                    amount: formatMoney(fund.card.balanceCents, locale, "EUR"),
                    date: formatDate(fund.card.expiresAt, locale),
                  }),
                ]
                  .filter(Boolean)
                  .join(" · ")
              : t("vouchers.fund.cardNone")}
          </p>
          {fund.contributions.length === 0 ? (
            <p className="mt-2 text-sm text-muted">{t("vouchers.fund.noContributions")}</p>
          ) : (
            <table className="mt-2 w-full text-left text-sm">
              <caption className="sr-only">{t("vouchers.fund.contributions")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("vouchers.fund.giver")}</th>
                  <th scope="col">{t("vouchers.fund.message")}</th>
                  <th scope="col">{t("vouchers.fund.amount")}</th>
                  <th scope="col">{t("vouchers.fund.date")}</th>
                </tr>
              </thead>
              <tbody>
                {fund.contributions.map((entry, index) => (
                  <tr key={index}>
                    <td>{entry.giverName}</td>
                    <td className="whitespace-pre-line">{entry.message}</td>
                    <td>{formatMoney(entry.amountCents, locale, "EUR")}</td>
                    <td>{formatDate(entry.at, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {fund.collectedCents === 0 && fund.contributions.length === 0 && (
            <Form method="post" action={action} className="mt-2">
              <input type="hidden" name="intent" value="fund-remove" />
              <input type="hidden" name="giftListId" value={giftListId} />
              <input type="hidden" name="fundId" value={fund.id} />
              <button type="submit" className="text-sm font-semibold text-coral-700 underline">
                {t("vouchers.fund.remove")}
              </button>
            </Form>
          )}
        </div>
      ))}
      <Form method="post" action={action} className="mt-4 space-y-3" aria-label={t("vouchers.fund.addTitle")}>
        <input type="hidden" name="intent" value="fund-add" />
        <input type="hidden" name="giftListId" value={giftListId} />
        <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
          <TextField label={t("vouchers.fund.fundTitle")} name="title" required maxLength={120} error={error("title")} />
          <TextField label={t("vouchers.fund.target")} name="target" inputMode="decimal" error={error("target")} />
        </div>
        <TextField multiline rows={2} label={t("vouchers.fund.description")} name="description" maxLength={1000} error={error("description")} />
        {errors?.form && <p className="field-error">{t(errors.form)}</p>}
        <button type="submit" className="btn-secondary">
          {t("vouchers.fund.add")}
        </button>
      </Form>
    </section>
  );
}
