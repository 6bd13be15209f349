import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { AccountNotice, SubmitButton, useFormWithProblems } from "./account-form-parts";
import { TextField } from "./form-field";
import type { AddressChoice, FormState, OwnGiftList } from "./gift-list-manage";

const types = ["nascita", "compleanno", "battesimo"] as const;
const visibilities = ["public", "code_only"] as const;

/** Creating a list, or editing `editing`. Every field is checked again on the server. */
export function GiftListForm({
  editing,
  addresses,
  state,
  today,
  locale,
}: {
  editing: OwnGiftList | null;
  addresses: readonly AddressChoice[];
  state: FormState;
  today: string;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const errors = state?.errors;
  const formRef = useFormWithProblems(errors);
  const error = (field: string) => (errors?.[field] ? t(errors[field]) : undefined);
  const value = (field: "type" | "visibility" | "title" | "eventDate" | "celebratedNames" | "messageToGuests") =>
    state?.values?.[field] ?? editing?.[field];
  const delivery =
    state?.values?.shippingAddressId ??
    (editing ? (editing.shippingAddressId === null ? "collection" : String(editing.shippingAddressId)) : "collection");
  const type = value("type") ?? "nascita";
  const visibility = value("visibility") ?? "public";
  const titleId = "gift-list-form-title";
  return (
    <Form
      ref={formRef}
      method="post"
      action={`${localizedHref("/crea-lista-nascita", locale)}${editing ? `?edit=${editing.id}` : ""}`}
      noValidate
      id="gift-list-form"
      aria-labelledby={titleId}
      className="space-y-5 rounded-3xl bg-white p-6 shadow-card sm:p-8"
    >
      <h2 id={titleId} className="text-2xl font-bold">
        {editing ? t("giftLists.mine.editTitle") : t("giftLists.mine.createTitle")}
      </h2>
      {errors?.form && <AccountNotice kind="error">{t(errors.form)}</AccountNotice>}
      <input type="hidden" name="intent" value={editing ? "update" : "create"} />
      {editing && <input type="hidden" name="giftListId" value={editing.id} />}
      <fieldset>
        <legend className="field-label">{t("giftLists.fields.type")}</legend>
        <div className="flex flex-wrap gap-3">
          {types.map((option) => (
            <label key={option} className="flex items-center gap-2 rounded-full border border-brand-200 px-4 py-2">
              <input type="radio" name="type" value={option} defaultChecked={type === option} className="size-4 accent-brand-700" />
              {t(`giftLists.types.${option}`)}
            </label>
          ))}
        </div>
        {error("type") && <p className="field-error">{error("type")}</p>}
      </fieldset>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label={t("giftLists.fields.title")} name="title" required maxLength={120} defaultValue={value("title")} error={error("title")} />
        <TextField
          label={t("giftLists.fields.eventDate")}
          name="eventDate"
          type="date"
          required
          min={editing ? undefined : today}
          defaultValue={value("eventDate")}
          error={error("eventDate")}
        />
      </div>
      <TextField
        label={t("giftLists.fields.celebratedNames")}
        name="celebratedNames"
        required
        maxLength={200}
        hint={t("giftLists.fields.celebratedNamesHint")}
        defaultValue={value("celebratedNames")}
        error={error("celebratedNames")}
      />
      <TextField
        multiline
        rows={3}
        label={t("giftLists.fields.messageToGuests")}
        name="messageToGuests"
        maxLength={1000}
        defaultValue={value("messageToGuests")}
        error={error("messageToGuests")}
      />
      <fieldset>
        <legend className="field-label">{t("giftLists.fields.delivery")}</legend>
        <div className="flex flex-col gap-2">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="shippingAddressId"
              value="collection"
              defaultChecked={delivery === "collection"}
              className="size-4 accent-brand-700"
            />
            {t("giftLists.fields.collection")}
          </label>
          {addresses.map((address) => (
            <label key={address.id} className="flex items-center gap-2">
              <input
                type="radio"
                name="shippingAddressId"
                value={address.id}
                defaultChecked={delivery === String(address.id)}
                className="size-4 accent-brand-700"
              />
              {t("giftLists.fields.addressOption", { address: address.text })}
            </label>
          ))}
        </div>
        {addresses.length === 0 && (
          <p className="mt-1 text-sm text-muted">
            {t("giftLists.fields.noAddresses")}{" "}
            <Link to={`${localizedHref("/my-account", locale)}#addresses`} className="link">
              {t("account.menu")}
            </Link>
          </p>
        )}
        {error("shippingAddressId") && <p className="field-error">{error("shippingAddressId")}</p>}
      </fieldset>
      <fieldset>
        <legend className="field-label">{t("giftLists.fields.visibility")}</legend>
        <div className="flex flex-col gap-2">
          {visibilities.map((option) => (
            <label key={option} className="flex items-center gap-2">
              <input type="radio" name="visibility" value={option} defaultChecked={visibility === option} className="size-4 accent-brand-700" />
              {t(`giftLists.visibility.${option}`)}
            </label>
          ))}
        </div>
        {error("visibility") && <p className="field-error">{error("visibility")}</p>}
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <SubmitButton intent={editing ? "update" : "create"} busyLabel={t(editing ? "giftLists.mine.saving" : "giftLists.mine.creating")}>
          {t(editing ? "giftLists.mine.save" : "giftLists.mine.create")}
        </SubmitButton>
        {editing && (
          <Link to={localizedHref("/crea-lista-nascita", locale)} className="btn-secondary">
            {t("giftLists.mine.cancelEdit")}
          </Link>
        )}
      </div>
    </Form>
  );
}
