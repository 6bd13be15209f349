/**
 * JSON as the text of a `<script>` data block (JSON-LD, the page's personal part): `<`, `>`, `&` and the line
 * separators as \u escapes, so no text can close or change the script.
 */
export function jsonInScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
