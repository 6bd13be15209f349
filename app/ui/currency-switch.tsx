import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useLocation, useNavigation, useSubmit } from "react-router";
import { displayCurrencies, type DisplayCurrency } from "#common/format.ts";
import { CheckIcon } from "./icons";
import { useDisplayCurrency } from "./price";
import { useHydrated } from "./use-hydrated";

/** The resource route that remembers the choice (app/routes/settings/currency.ts). */
export const currencyActionPath = "/currency";

const currencySymbols: Record<DisplayCurrency, string> = { EUR: "€", USD: "$", GBP: "£" };

const isDisplayCurrency = (value: unknown): value is DisplayCurrency =>
  typeof value === "string" && (displayCurrencies as readonly string[]).includes(value);

/**
 * The display-currency choice in the top bar. Without JavaScript: a select and a submit button
 * posting to /currency, which sets the cookie and comes back to this page. With JavaScript the
 * choice applies as soon as it is picked (same page, prices revalidated, focus kept) and is
 * announced. Payment is always in EUR: the select's description says so.
 */
export function CurrencySwitch({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  const { code } = useDisplayCurrency();
  const { pathname, search } = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const selectId = useId();
  const noteId = useId();

  // While the choice is being saved, show it already.
  const pending = navigation.formAction === currencyActionPath ? navigation.formData?.get("currency") : null;
  const shown = isDisplayCurrency(pending) ? pending : code;

  const [announcement, setAnnouncement] = useState("");
  const announced = useRef(code);
  useEffect(() => {
    if (announced.current === code) return;
    announced.current = code;
    setAnnouncement(t("currency.changed", { currency: t(`currency.names.${code}`) }));
  }, [code, t]);

  return (
    <Form method="post" action={currencyActionPath} preventScrollReset className={`flex items-center gap-1.5 ${className}`}>
      <input type="hidden" name="redirectTo" value={`${pathname}${search}`} />
      <label htmlFor={selectId} className="sr-only">
        {t("currency.label")}
      </label>
      <select
        id={selectId}
        name="currency"
        value={shown}
        aria-describedby={noteId}
        onChange={(event) => {
          // React Router reports how it went through its navigation state; the promise only says when.
          if (event.currentTarget.form) void submit(event.currentTarget.form, { preventScrollReset: true });
        }}
        className="rounded border border-brand-300 bg-brand-800 py-0.5 pr-1 pl-1.5 text-sm text-white hover:border-white"
      >
        {displayCurrencies.map((option) => (
          <option key={option} value={option}>
            {`${currencySymbols[option]} ${option}`}
          </option>
        ))}
      </select>
      <span id={noteId} className="sr-only">
        {t("currency.paymentInEur")}
      </span>
      {/* An icon, not its words: with them the line wrapped on a phone and lost that height at hydration, a
          layout shift of 0.19 (decision 0115). Its name is still "Cambia valuta" to a screen reader. */}
      {!hydrated && (
        <button type="submit" className="rounded bg-white p-1 text-brand-800 hover:bg-brand-50">
          <CheckIcon size={16} strokeWidth={2.5} />
          <span className="sr-only">{t("currency.apply")}</span>
        </button>
      )}
      <span role="status" className="sr-only">
        {announcement}
      </span>
    </Form>
  );
}

/** "Prices in USD are a guide...: payment is always in EUR", shown when the display currency is not EUR. */
export function PaymentCurrencyNote({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  const { code } = useDisplayCurrency();
  if (code === "EUR") return null;
  return <p className={className}>{t("currency.indicative", { currency: code })}</p>;
}
