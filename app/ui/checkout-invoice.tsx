import type { ComponentProps } from "react";
import { useTranslation } from "react-i18next";
import { CheckoutField, CheckoutSection, checkoutFieldId } from "#app/ui/checkout-fields.tsx";

type FieldProps = (name: string) => Pick<ComponentProps<typeof CheckoutField>, "name" | "label" | "error" | "defaultValue">;

const kinds = ["none", "private", "company"] as const;

/** The invoice a form asked for: its choice, or the older box that meant a company's. */
export function invoiceKindOfValues(values: { invoiceKind?: string; wantsInvoice?: string }): (typeof kinds)[number] {
  const chosen = kinds.find((kind) => kind === values.invoiceKind);
  if (chosen) return chosen;
  return values.wantsInvoice === "on" || values.wantsInvoice === "true" ? "company" : "none";
}

/**
 * No invoice, a private person's (codice fiscale) or a company's (partita IVA, SDI code or PEC). The
 * fields of the choice made show by CSS alone, so the form works before JavaScript.
 */
export function CheckoutInvoice({ field, values, error }: { field: FieldProps; values: Record<string, string | undefined>; error?: string }) {
  const { t } = useTranslation();
  const chosen = invoiceKindOfValues(values);
  const radioId = (kind: string) => `${checkoutFieldId("invoiceKind")}-${kind}`;
  return (
    <CheckoutSection title={t("checkout.invoice.title")}>
      <div className="group/invoice">
        <fieldset aria-describedby={error ? `${checkoutFieldId("invoiceKind")}-error` : undefined}>
          <legend className="field-label">{t("invoices.checkout.kindLegend")}</legend>
          <div id={checkoutFieldId("invoiceKind")} tabIndex={-1} className="mt-2 grid gap-2">
            {kinds.map((kind) => (
              <div key={kind} className="flex items-start gap-3">
                <input
                  id={radioId(kind)}
                  type="radio"
                  name="invoiceKind"
                  value={kind}
                  defaultChecked={chosen === kind}
                  className="mt-1 size-5 shrink-0 accent-brand-700"
                />
                <label htmlFor={radioId(kind)}>{t(`invoices.checkout.kinds.${kind}`)}</label>
              </div>
            ))}
          </div>
          {error && (
            <p id={`${checkoutFieldId("invoiceKind")}-error`} className="field-error">
              {error}
            </p>
          )}
        </fieldset>
        <div className="mt-4 hidden gap-4 group-has-[#checkout-invoiceKind-private:checked]/invoice:grid sm:grid-cols-2">
          <CheckoutField
            {...field("fiscalCode")}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            hint={t("invoices.checkout.fiscalCodeHint")}
          />
        </div>
        <div className="mt-4 hidden gap-4 group-has-[#checkout-invoiceKind-company:checked]/invoice:grid sm:grid-cols-2">
          <CheckoutField {...field("companyName")} className="sm:col-span-2" autoComplete="organization" maxLength={200} />
          <CheckoutField {...field("vatNumber")} inputMode="numeric" maxLength={16} hint={t("checkout.fields.vatNumberHint")} />
          <CheckoutField {...field("sdiCode")} maxLength={7} hint={t("checkout.fields.sdiCodeHint")} />
          <CheckoutField {...field("pec")} type="email" className="sm:col-span-2" maxLength={254} />
        </div>
        <p className="mt-4 hidden rounded-xl bg-brand-50 px-4 py-3 text-sm group-has-[#checkout-deliveryMethod-collection:checked]/checkout:group-has-[#checkout-invoiceKind-none:not(:checked)]/invoice:block">
          {t("invoices.checkout.addressNeeded")}
        </p>
      </div>
    </CheckoutSection>
  );
}
