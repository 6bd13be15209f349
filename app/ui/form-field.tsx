import { useId, type InputHTMLAttributes, type TextareaHTMLAttributes } from "react";

type CommonProps = {
  label: string;
  /** Already translated; shown under the field and announced with it (aria-describedby). */
  error?: string;
  hint?: string;
};

type TextFieldProps = CommonProps &
  (({ multiline?: false } & InputHTMLAttributes<HTMLInputElement>) | ({ multiline: true } & TextareaHTMLAttributes<HTMLTextAreaElement>));

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
      {props.multiline ? (
        <textarea {...withoutMultiline(props)} {...shared} />
      ) : (
        <input {...(withoutMultiline(props) as InputHTMLAttributes<HTMLInputElement>)} {...shared} />
      )}
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
