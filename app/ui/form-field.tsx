import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import { Link } from "react-router";

type CommonProps = {
  label: string;
  /** Already translated; shown under the field and announced with it (aria-describedby). */
  error?: string;
  hint?: string;
};

export type InputFieldProps = CommonProps & { multiline?: false } & InputHTMLAttributes<HTMLInputElement>;
export type TextAreaFieldProps = CommonProps & { multiline: true } & TextareaHTMLAttributes<HTMLTextAreaElement>;
type TextFieldProps = InputFieldProps | TextAreaFieldProps;

/** A labelled input or textarea with its hint and its error message. */
export function TextField({ label, error, hint, className = "", ...props }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const described = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  const shared = { id, "aria-invalid": error ? true : undefined, "aria-describedby": described, className: "field-input" };
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
        {props.required ? (
          <span aria-hidden="true" className="text-coral-700">
            {" "}
            *
          </span>
        ) : null}
      </label>
      {props.multiline ? <textarea {...withoutMultiline(props)} {...shared} /> : <input {...withoutMultiline(props)} {...shared} />}
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

function withoutMultiline<T extends { multiline?: boolean }>({ multiline: _multiline, ...rest }: T) {
  return rest;
}

/**
 * The required privacy consent of a form: a checkbox, the link to the privacy notice under it, and the
 * error announced with the checkbox (aria-describedby). `label` and `linkText` are already translated.
 */
export function PrivacyConsentField({
  label,
  linkText,
  privacyHref,
  error,
  defaultChecked,
}: {
  label: string;
  linkText: string;
  privacyHref: string;
  error?: string;
  defaultChecked?: boolean;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          name="privacy"
          required
          defaultChecked={defaultChecked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="mt-1 size-5 shrink-0 accent-brand-700"
        />
        <label htmlFor={id} className="text-sm">
          {label}{" "}
          <span aria-hidden="true" className="text-coral-700">
            *
          </span>
        </label>
      </div>
      <p className="mt-1 ml-8 text-sm">
        <Link to={privacyHref} className="link">
          {linkText}
        </Link>
      </p>
      {error && (
        <p id={errorId} className="field-error ml-8">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled select with its error, like TextField. */
export function SelectField({
  label,
  name,
  defaultValue,
  error,
  children,
}: {
  label: string;
  name: string;
  defaultValue?: string;
  error?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        className="field-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {children}
      </select>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled checkbox, the whole label clickable. */
export function CheckboxField({ label, name, defaultChecked }: { label: string; name: string; defaultChecked?: boolean }) {
  return (
    <label className="flex min-h-11 items-center gap-3 font-semibold">
      <input type="checkbox" name={name} defaultChecked={defaultChecked} className="size-5" />
      {label}
    </label>
  );
}
