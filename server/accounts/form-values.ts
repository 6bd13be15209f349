/**
 * What a refused form shows again so nothing typed is lost (without JavaScript the page reloads):
 * strings only, control characters removed, within a sane length. Passwords are never echoed.
 */
export function echoFields(form: FormData, names: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) {
    values[name] = formText(form, name)
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")
      .slice(0, 10_000);
  }
  return values;
}

/** One text field of a form: "" when it is missing or a file was sent in its place. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** The text fields of a form as a plain object (files and repeated names are ignored). */
export function formFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && !(name in fields)) fields[name] = value;
  return fields;
}
