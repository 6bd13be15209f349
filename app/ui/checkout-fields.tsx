import { useEffect, useEffectEvent, useRef, type InputHTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** Field -> message, already in the page's language (parseCheckoutForm). */
export type CheckoutErrors = Partial<Record<string, string>>;

/** The delivery address inputs (the same names as the server's checkout form). */
export const addressFieldNames = ["street", "houseNumber", "postcode", "city", "province"] as const;

/** The fields as the page shows them, top to bottom: the error summary lists problems in this order. */
export const fieldsInPageOrder = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "deliveryMethod",
  "savedAddressId",
  ...addressFieldNames,
  "invoiceKind",
  "fiscalCode",
  "companyName",
  "vatNumber",
  "sdiCode",
  "pec",
  "paymentMethod",
  "discountCode",
  "acceptTerms",
] as const;

/** Stable ids, so the error summary can link to each field. */
export const checkoutFieldId = (name: string) => `checkout-${name}`;

/**
 * A labelled checkout input with its hint and error. Unlike TextField its id is the field's name
 * (the error summary at the top links to it).
 */
export function CheckoutField({
  name,
  label,
  error,
  hint,
  className = "",
  ...props
}: { name: string; label: string; error?: string; hint?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id">) {
  const id = checkoutFieldId(name);
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
        {props.required && (
          <span aria-hidden="true" className="text-coral-700">
            {" "}
            *
          </span>
        )}
      </label>
      <input {...props} id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={described} className="field-input" />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A titled group of the checkout form (fieldset + legend), as a white card. */
export function CheckoutSection({
  title,
  children,
  hidden,
  className = "",
}: {
  title: string;
  children: ReactNode;
  hidden?: boolean;
  className?: string;
}) {
  return (
    <fieldset hidden={hidden} className={`min-w-0 rounded-2xl bg-white p-5 shadow-card sm:p-6 ${className}`}>
      <legend className="float-left mb-4 w-full text-xl font-bold">{title}</legend>
      <div className="clear-both">{children}</div>
    </fieldset>
  );
}

/**
 * One option of a radio group drawn as a card: title, text, price on the right; a disabled option
 * says why. The radio itself stays a real input (keyboard, no JavaScript).
 */
export function ChoiceCard({
  name,
  value,
  checked,
  disabled,
  onChange,
  title,
  price,
  children,
  reason,
}: {
  name: string;
  value: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (value: string) => void;
  title: string;
  price?: string;
  children?: ReactNode;
  reason?: string | null;
}) {
  const id = `${checkoutFieldId(name)}-${value}`;
  const describedBy = [`${id}-text`, reason ? `${id}-reason` : null].filter(Boolean).join(" ");
  return (
    <div
      className={`flex gap-3 rounded-xl border-2 p-4 ${
        disabled ? "border-slate-200 bg-slate-50" : checked ? "border-brand-700 bg-brand-50" : "border-brand-100 bg-white hover:border-brand-300"
      }`}
    >
      <input
        id={id}
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={() => onChange(value)}
        aria-describedby={describedBy}
        className="mt-1 size-5 shrink-0 accent-brand-700"
      />
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className={`flex flex-wrap justify-between gap-x-3 font-semibold ${disabled ? "text-muted" : ""}`}>
          <span>{title}</span>
          {price && <span className="font-bold">{price}</span>}
        </label>
        <div id={`${id}-text`} className="text-sm text-muted">
          {children}
        </div>
        {reason && (
          <p id={`${id}-reason`} className="mt-1 text-sm font-semibold text-ink">
            {reason}
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * The refused submission's problems at the top of the form, each a link to its field. After a
 * refusal the keyboard goes to the first field to fix (the summary is announced as an alert).
 */
export function CheckoutErrorSummary({ errors, labels }: { errors: CheckoutErrors; labels: Record<string, string> }) {
  const { t } = useTranslation();
  // In the order of the page (a field not on it, like a stale form key, first).
  const position = (field: string) => fieldsInPageOrder.indexOf(field as (typeof fieldsInPageOrder)[number]);
  const entries = Object.entries(errors)
    .filter((entry): entry is [string, string] => Boolean(entry[1]))
    .sort(([a], [b]) => position(a) - position(b));
  const ref = useRef<HTMLDivElement>(null);
  const focusFirstProblem = useEffectEvent(() => {
    const first = entries[0];
    if (!first) return;
    const firstField = document.getElementById(checkoutFieldId(first[0]));
    (firstField ?? ref.current)?.focus();
  });
  // Once per answer of the server (a new errors object), not on every render.
  useEffect(() => focusFirstProblem(), [errors]);
  if (entries.length === 0) return null;
  return (
    <div ref={ref} role="alert" tabIndex={-1} className="rounded-2xl border-2 border-coral-600 bg-coral-50 p-4 sm:p-5">
      <p className="font-bold text-coral-700">{t("checkout.errorSummary")}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {entries.map(([field, message]) => (
          <li key={field}>
            <a href={`#${checkoutFieldId(field)}`} className="link text-coral-700">
              {labels[field] ? `${labels[field]}: ` : ""}
              {message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
