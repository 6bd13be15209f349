import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { formatMoney } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import { AccountNotice, SubmitButton, useFormWithProblems, type FormErrors } from "./account-form-parts";
import { TextField } from "./form-field";
import type { GroupGiftProgress as GroupGiftRound } from "#server/gift-lists/gift-list-group.ts";

/** The list page's answer to a refused contribution. */
export type ContributionState = {
  errors: FormErrors;
  values: Partial<Record<string, string>>;
  leftCents: number;
  minCents: number;
};

/** How much is collected (paid), what waits for payment and what is still missing, with a bar. */
export function GroupGiftProgress({ group, locale, labelledBy }: { group: GroupGiftRound; locale: Locale; labelledBy?: string }) {
  const { t } = useTranslation();
  const money = (cents: number) => formatMoney(cents, locale);
  const progressText = t("giftLists.group.progress", {
    funded: money(group.fundedCents),
    target: money(group.targetCents),
    percent: group.fundedPercent,
  });
  return (
    <div className="space-y-1 text-sm">
      <div
        role="progressbar"
        aria-label={t("giftLists.group.progressLabel")}
        aria-describedby={labelledBy}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={group.fundedPercent}
        aria-valuetext={progressText}
        className="h-3 overflow-hidden rounded-full bg-brand-100"
      >
        <div className="h-full rounded-full bg-brand-700" style={{ width: `${group.fundedPercent}%` }} />
      </div>
      <p className="font-semibold">{progressText}</p>
      {group.leftCents > 0 ? (
        <p>{t("giftLists.group.left", { left: money(group.leftCents) })}</p>
      ) : (
        group.pendingCents === 0 && <p>{t("giftLists.group.complete")}</p>
      )}
      {group.pendingCents > 0 && <p className="text-muted">{t("giftLists.group.pending", { pending: money(group.pendingCents) })}</p>}
    </div>
  );
}

/**
 * A guest's contribution: amount, name for the family, e-mail for the receipt, a message, the terms;
 * then the card payment page. A plain form: the answer is a redirect to the payment provider.
 */
export function ContributionForm({
  itemId,
  itemName,
  code,
  group,
  idempotencyKey,
  state,
  locale,
}: {
  itemId: string;
  itemName: string;
  code: string;
  group: GroupGiftRound;
  idempotencyKey: string;
  state: ContributionState | undefined;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const formRef = useFormWithProblems(state?.errors);
  const money = (cents: number) => formatMoney(cents, locale);
  // A refusal names what was left when it was checked, which the page data may not show yet.
  const left = state ? state.leftCents : group.leftCents;
  const min = state ? state.minCents : group.minCents;
  const error = (field: string) => (state?.errors[field] ? t(state.errors[field], { left: money(left), min: money(min) }) : undefined);
  const termsId = `terms-${itemId}`;
  const titleId = `contribute-${itemId}`;
  return (
    <Form
      ref={formRef}
      method="post"
      action={localizedHref(`/lista-nascita/${code}`, locale)}
      noValidate
      aria-labelledby={titleId}
      className="mt-2 space-y-3 border-t border-brand-100 pt-3"
    >
      <h4 id={titleId} className="font-bold">
        {t("giftLists.group.formTitle")}
        <span className="sr-only"> {itemName}</span>
      </h4>
      {state?.errors.form && <AccountNotice kind="error">{error("form")}</AccountNotice>}
      <input type="hidden" name="intent" value="contribute" />
      <input type="hidden" name="itemId" value={itemId} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <TextField
        label={t("giftLists.group.amount")}
        name="amount"
        inputMode="decimal"
        required
        hint={t("giftLists.group.amountHint", { min: money(group.minCents), left: money(group.leftCents) })}
        defaultValue={state?.values.amount}
        error={error("amount")}
      />
      <TextField
        label={t("giftLists.group.giverName")}
        name="giverName"
        required
        maxLength={100}
        autoComplete="name"
        hint={t("giftLists.group.giverNameHint")}
        defaultValue={state?.values.giverName}
        error={error("giverName")}
      />
      <TextField
        label={t("giftLists.group.email")}
        name="email"
        type="email"
        required
        autoComplete="email"
        hint={t("giftLists.group.emailHint")}
        defaultValue={state?.values.email}
        error={error("email")}
      />
      <TextField
        multiline
        rows={2}
        label={t("giftLists.group.message")}
        name="giftMessage"
        maxLength={500}
        defaultValue={state?.values.giftMessage}
        error={error("giftMessage")}
      />
      <div>
        <div className="flex items-start gap-3">
          <input
            id={termsId}
            type="checkbox"
            name="acceptTerms"
            aria-invalid={state?.errors.acceptTerms ? true : undefined}
            aria-describedby={state?.errors.acceptTerms ? `${termsId}-error` : undefined}
            className="mt-1 size-5 shrink-0 accent-brand-700"
          />
          <label htmlFor={termsId} className="text-sm">
            {t("checkout.fields.acceptTerms")}{" "}
            <a href={`${localizedHref("/centroassistenza", locale)}#condizionidivedita`} target="_blank" rel="noopener" className="link">
              {t("checkout.fields.termsLink")}
              <span className="sr-only"> {t("checkout.fields.newTab")}</span>
            </a>
          </label>
        </div>
        {state?.errors.acceptTerms && (
          <p id={`${termsId}-error`} className="field-error">
            {error("acceptTerms")}
          </p>
        )}
      </div>
      <p className="text-sm text-muted">{t("giftLists.group.cardOnly")}</p>
      <SubmitButton intent="contribute" busyLabel={t("checkout.placing")} className="btn-primary w-full">
        {t("giftLists.group.pay")}
        <span className="sr-only"> {itemName}</span>
      </SubmitButton>
    </Form>
  );
}
