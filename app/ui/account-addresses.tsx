import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { Address } from "#server/accounts/address.service.ts";
import { AccountNotice, SubmitButton, useErrorText, useFormWithProblems, type FormErrors } from "./account-form-parts";
import { TextField } from "./form-field";
import { AddressLines } from "./address-lines";
import { MapPinIcon } from "./icons";

/** The address as JSON from the loader (dates become strings). */
export type AddressView = Omit<Address, "createdAt" | "updatedAt" | "userId"> & Record<string, unknown>;

export type AddressLimits = Record<"label" | "firstName" | "lastName" | "street" | "houseNumber" | "city" | "phone", number>;

type FormState = { errors?: FormErrors; values?: Partial<Record<string, string>> } | undefined;

export function AddressList({ addresses, locale }: { addresses: readonly AddressView[]; locale: Locale }) {
  const { t } = useTranslation();
  if (addresses.length === 0) return <p className="text-muted">{t("myAccount.addresses.empty")}</p>;
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {addresses.map((address) => {
        const name = address.label || `${address.street} ${address.houseNumber}`;
        return (
          <li key={address.id} className="flex flex-col rounded-2xl border-2 border-brand-100 p-4">
            <div className="mb-2 flex flex-wrap items-center gap-2">
              <MapPinIcon size={20} className="text-brand-700" />
              <span className="font-bold">{address.label || t("myAccount.addresses.untitled")}</span>
              {address.isDefault && (
                <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">{t("myAccount.addresses.default")}</span>
              )}
            </div>
            <AddressLines address={address} />
            <div className="mt-4 flex flex-wrap gap-2">
              <Link to={`?edit=${address.id}#address-form`} className="btn-secondary px-4 py-1.5" preventScrollReset>
                {t("myAccount.addresses.edit")}
                <span className="sr-only"> {name}</span>
              </Link>
              {!address.isDefault && (
                <Form method="post" action={localizedHref("/my-account", locale)}>
                  <input type="hidden" name="intent" value="address-default" />
                  <input type="hidden" name="addressId" value={address.id} />
                  <button type="submit" className="btn-secondary px-4 py-1.5">
                    {t("myAccount.addresses.makeDefault")}
                    <span className="sr-only"> {name}</span>
                  </button>
                </Form>
              )}
              <Form method="post" action={localizedHref("/my-account", locale)}>
                <input type="hidden" name="intent" value="address-delete" />
                <input type="hidden" name="addressId" value={address.id} />
                <button type="submit" className="btn px-4 py-1.5 text-coral-700 hover:bg-coral-50">
                  {t("myAccount.addresses.delete")}
                  <span className="sr-only"> {name}</span>
                </button>
              </Form>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** The fields of an address the form edits as text. */
type AddressTextField = "label" | "firstName" | "lastName" | "street" | "houseNumber" | "postcode" | "city" | "province" | "phone";

/** Add a new address, or edit `editing` (then the form carries its id). */
export function AddressForm({
  editing,
  state,
  limits,
  locale,
}: {
  editing: AddressView | null;
  state: FormState;
  limits: AddressLimits;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const errors = state?.errors;
  const errorText = useErrorText(errors, limits);
  const formRef = useFormWithProblems(errors);
  const checkboxId = useId();
  const value = (field: AddressTextField) => state?.values?.[field] ?? (editing ? (editing[field] ?? "") : undefined);
  const intent = editing ? "address-update" : "address-add";
  return (
    <Form
      ref={formRef}
      method="post"
      action={`${localizedHref("/my-account", locale)}${editing ? `?edit=${editing.id}` : ""}`}
      noValidate
      id="address-form"
      aria-labelledby="address-form-title"
      className="space-y-5 rounded-2xl bg-brand-50/60 p-4 sm:p-6"
    >
      <h3 id="address-form-title" className="text-xl font-bold">
        {editing ? t("myAccount.addresses.editTitle") : t("myAccount.addresses.addTitle")}
      </h3>
      <input type="hidden" name="intent" value={intent} />
      {editing && <input type="hidden" name="addressId" value={editing.id} />}
      {errors?.form && <AccountNotice kind="error">{t(errors.form)}</AccountNotice>}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          className="sm:col-span-2"
          label={t("myAccount.addresses.fields.label")}
          hint={t("myAccount.addresses.fields.labelHint")}
          name="label"
          maxLength={limits.label}
          defaultValue={value("label")}
          error={errorText("label")}
        />
        <TextField
          label={t("myAccount.addresses.fields.firstName")}
          name="firstName"
          autoComplete="given-name"
          required
          maxLength={limits.firstName}
          defaultValue={value("firstName")}
          error={errorText("firstName")}
        />
        <TextField
          label={t("myAccount.addresses.fields.lastName")}
          name="lastName"
          autoComplete="family-name"
          required
          maxLength={limits.lastName}
          defaultValue={value("lastName")}
          error={errorText("lastName")}
        />
        <TextField
          label={t("myAccount.addresses.fields.street")}
          name="street"
          autoComplete="address-line1"
          required
          maxLength={limits.street}
          defaultValue={value("street")}
          error={errorText("street")}
        />
        <TextField
          label={t("myAccount.addresses.fields.houseNumber")}
          name="houseNumber"
          required
          maxLength={limits.houseNumber}
          defaultValue={value("houseNumber")}
          error={errorText("houseNumber")}
        />
        <TextField
          label={t("myAccount.addresses.fields.postcode")}
          name="postcode"
          autoComplete="postal-code"
          inputMode="numeric"
          required
          maxLength={5}
          hint={t("myAccount.addresses.fields.postcodeHint")}
          defaultValue={value("postcode")}
          error={errorText("postcode")}
        />
        <TextField
          label={t("myAccount.addresses.fields.city")}
          name="city"
          autoComplete="address-level2"
          required
          maxLength={limits.city}
          defaultValue={value("city")}
          error={errorText("city")}
        />
        <TextField
          label={t("myAccount.addresses.fields.province")}
          name="province"
          autoComplete="address-level1"
          required
          maxLength={2}
          hint={t("myAccount.addresses.fields.provinceHint")}
          defaultValue={value("province")}
          error={errorText("province")}
        />
        <TextField
          label={t("myAccount.addresses.fields.phone")}
          name="phone"
          type="tel"
          autoComplete="tel"
          maxLength={limits.phone}
          hint={t("myAccount.addresses.fields.phoneHint")}
          defaultValue={value("phone")}
          error={errorText("phone")}
        />
      </div>
      <div className="flex items-center gap-3">
        <input
          id={checkboxId}
          type="checkbox"
          name="isDefault"
          defaultChecked={state?.values ? state.values.isDefault === "on" : Boolean(editing?.isDefault)}
          className="size-5 accent-brand-700"
        />
        <label htmlFor={checkboxId}>{t("myAccount.addresses.fields.isDefault")}</label>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton intent={intent} busyLabel={t("myAccount.saving")}>
          {editing ? t("myAccount.addresses.saveChanges") : t("myAccount.addresses.add")}
        </SubmitButton>
        {editing && (
          <Link to="?" className="link" preventScrollReset>
            {t("myAccount.addresses.cancelEdit")}
          </Link>
        )}
      </div>
    </Form>
  );
}
