import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { formatDate } from "#common/format.ts";
import type { Locale } from "#common/locale.ts";
import { CheckboxField } from "./form-field";
import { AccountNotice } from "./account-form-parts";

/**
 * The account's "Promemoria e inviti": what the shop may send her as an existing customer (the cart reminder and
 * the review invitation), checked unless she objected, and saved by one button (docs/decisions/0102-customer-mails-consent.md).
 */
export function CustomerMailsChoice({
  choice,
  saved,
  locale,
}: {
  choice: { objects: boolean; changedAt: string | Date | null };
  saved: "on" | "off" | null;
  locale: Locale;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="space-y-4">
      {saved && (
        <AccountNotice kind="success">{t(saved === "on" ? "customerMails.account.savedOn" : "customerMails.account.savedOff")}</AccountNotice>
      )}
      <p>{t("customerMails.account.lead")}</p>
      <input type="hidden" name="intent" value="mail-choice" />
      <CheckboxField key={String(choice.objects)} label={t("customerMails.account.wantsMails")} name="wantsMails" defaultChecked={!choice.objects} />
      {choice.changedAt && (
        <p className="text-sm text-muted">{t("customerMails.account.changedAt", { date: formatDate(choice.changedAt, locale) })}</p>
      )}
      <button type="submit" className="btn-primary">
        {t("customerMails.account.save")}
      </button>
    </Form>
  );
}
