/**
 * Text made safe inside HTML elements and quoted attributes, for the HTML written without React: the
 * mails, the packing slip, and the unavailable page (which must load with no i18next or React, so this
 * file imports nothing).
 */
const htmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEscapes[char]!);
}
