/**
 * Text made safe inside HTML elements and quoted attributes, for the HTML written without React: the
 * mails, the printable pages, and the unavailable page (which must load with no i18next or React, so this
 * file imports nothing).
 */
const htmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEscapes[char]!);
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
