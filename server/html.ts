/**
 * Text made safe inside HTML elements and quoted attributes, for the HTML written without React: the
 * mails, the printable pages, and the unavailable page (which must load with no i18next or React, so this
 * file imports nothing).
 */
const htmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEscapes[char]!);
}

/** XML 1.0 forbids most control characters even escaped: they are dropped, never sent. */
const xmlInvalidChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text for an XML element or attribute (sitemap, product feeds, FatturaPA). */
export function escapeXml(value: string): string {
  return value
    .replace(xmlInvalidChars, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * A page meant for printing (the packing slip, an invoice): a whole document of its own, with its `styles`,
 * its `body` (already escaped) and a print button's script, which must carry the answer's CSP nonce. The body
 * holds a `<button id="print">`.
 */
export function printableDocument(page: { locale: string; title: string; nonce: string; styles: string; body: string }): string {
  return `<!doctype html>
<html lang="${escapeHtml(page.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(page.title)}</title>
<style>
${page.styles}
</style>
</head>
<body>
${page.body}
<script nonce="${escapeHtml(page.nonce)}">document.getElementById("print").addEventListener("click", () => window.print());</script>
</body>
</html>`;
}
