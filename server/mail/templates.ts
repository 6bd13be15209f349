/**
 * The shop's e-mails: one plain text and one HTML body built from the same content, in Italian or
 * English, with the shop's footer (address, VAT number, phone, e-mail, opening hours). Pure: the
 * caller passes the shop identity (getSettings(db, ["shop"])) and its own texts, already translated.
 *
 *   const { shop } = await getSettings(tx, ["shop"]);
 *   const t = getTranslator(locale);
 *   await queueEmail(tx, {
 *     to: customer.email, kind: "order-confirmation", locale, dedupeKey: `order-confirmation:${order.id}`,
 *     ...renderEmail({
 *       locale, shop, siteUrl: publicUrl,
 *       subject: t("checkout.mail.subject", { number: order.number }),
 *       preheader: t("checkout.mail.preheader"),        // optional: the inbox's one-line preview
 *       heading: t("checkout.mail.heading", { name: customer.firstName }),
 *       paragraphs: [t("checkout.mail.thanks"), ...],     // plain text; "\n" is a line break
 *       links: [{ label: t("..."), url }],               // optional: labelled links after the paragraphs
 *       details: [[t("checkout.mail.total"), formatPrice(order.totalCents)], ...], // label / value rows
 *       detailsTitle: t("checkout.mail.summary"),         // optional heading above the rows
 *       action: { label: t("checkout.mail.viewOrder"), url: `${publicUrl}/shopping` }, // absolute http(s) URL
 *       footnote: t("checkout.mail.footnote"),            // optional small print after the button
 *       unsubscribe: { label: t("newsletter.mail.unsubscribe"), url }, // mailing-list mail only: link + List-Unsubscribe
 *     }),
 *   });
 *
 * Every value is treated as plain text and HTML-escaped here: never pass HTML. The HTML is plain and
 * accessible (lang, one h1, real text, a data table with row headers, contrast >= 4.5:1, inline
 * styles for mail clients) and loads nothing from outside: no images, fonts or tracking.
 */
import { groupOpeningHours, formatOpeningSlots } from "#common/opening-hours.ts";
import type { Locale } from "#common/locale.ts";
import { postalAddress, telHref } from "#common/shop-contacts.ts";
import { escapeHtml } from "#server/html.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import type { ShopIdentity } from "#server/settings/settings.ts";

/** The shop identity as stored in the settings (getSettings(db, ["shop"]).shop). */
export type EmailShop = ShopIdentity;

export type EmailContent = {
  locale: Locale;
  subject: string;
  preheader?: string;
  heading: string;
  paragraphs: string[];
  /** Labelled links after the paragraphs (a courier's tracking page), each absolute http(s). */
  links?: { label: string; url: string }[];
  details?: [label: string, value: string][];
  detailsTitle?: string;
  action?: { label: string; url: string };
  footnote?: string;
  /** Sections after the sign-off, each a heading and plain paragraphs (the withdrawal information and its model form). */
  appendix?: { title: string; paragraphs: string[] }[];
  /**
   * Mailing-list mail (the newsletter): a one-click unsubscribe link in the footer and the matching
   * List-Unsubscribe headers (RFC 8058), so mail clients offer their own button too.
   */
  unsubscribe?: { label: string; url: string };
  shop: EmailShop;
  /** The shop's public address (PUBLIC_URL); shown in the footer when given. */
  siteUrl?: string;
};

export type RenderedEmail = { subject: string; text: string; html: string; headers?: Record<string, string> };

/** Escaped, with line breaks kept. */
function htmlText(value: string): string {
  return escapeHtml(value.replace(/\r\n?/g, "\n")).replace(/\n/g, "<br>");
}

/** Links in mail must be absolute http(s): anything else (javascript:, relative) is a bug of the caller. */
function checkedUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
    throw new Error(`renderEmail: links must be absolute http(s) URLs, got ${JSON.stringify(url)}`);
  }
  return parsed.href;
}

/** "https://www.example.it/" -> "https://www.example.it" (the home page reads better without the slash). */
function displayUrl(url: string): string {
  return url.replace(/^(https?:\/\/[^/]+)\/$/, "$1");
}

/** "Lunedì - Sabato 09:30-13:00, 16:30-20:00; Domenica chiuso" */
export function summariseOpeningHours(openingHours: EmailShop["openingHours"], locale: Locale): string {
  const t = getTranslator(locale);
  return groupOpeningHours(openingHours)
    .map((range) => {
      const days =
        range.firstDay === range.lastDay
          ? t(`weekdays.${range.firstDay}`)
          : t("openingHours.dayRange", { from: t(`weekdays.${range.firstDay}`), to: t(`weekdays.${range.lastDay}`) });
      return `${days} ${range.slots.length ? formatOpeningSlots(range.slots) : t("openingHours.closed")}`;
    })
    .join("; ");
}

function footerLines(content: EmailContent) {
  const { shop, locale } = content;
  const t = getTranslator(locale);
  return {
    legalName: shop.legalName,
    address: postalAddress(shop),
    vatNumber: t("footer.vatNumber", { vatNumber: shop.vatNumber }),
    phone: t("mail.footer.phone", { phone: shop.phone }),
    email: t("mail.footer.email", { email: shop.email }),
    hours: t("mail.footer.hours", { hours: summariseOpeningHours(shop.openingHours, locale) }),
    note: t("mail.footer.note", { shopName: shop.name }),
  };
}

/** Builds the subject, text and HTML of one e-mail (see the comment at the top of this file). */
export function renderEmail(content: EmailContent): RenderedEmail {
  const subject = content.subject.replace(/\s+/g, " ").trim();
  const action = content.action ? { label: content.action.label, url: checkedUrl(content.action.url) } : undefined;
  const siteUrl = content.siteUrl ? checkedUrl(content.siteUrl) : undefined;
  const unsubscribe = content.unsubscribe ? { label: content.unsubscribe.label, url: checkedUrl(content.unsubscribe.url) } : undefined;
  const links = content.links?.map((link) => ({ label: link.label, url: checkedUrl(link.url) }));
  const normalised = { ...content, subject, action, siteUrl, unsubscribe, links };
  const rendered: RenderedEmail = { subject, text: renderText(normalised), html: renderHtml(normalised) };
  if (unsubscribe) rendered.headers = { "List-Unsubscribe": `<${unsubscribe.url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
  return rendered;
}

function renderText(content: EmailContent): string {
  const t = getTranslator(content.locale);
  const footer = footerLines(content);
  const blocks: string[] = [content.heading, ...content.paragraphs, ...(content.links ?? []).map((link) => `${link.label}:\n${link.url}`)];
  if (content.details?.length) {
    const rows = content.details.map(([label, value]) => `${label}: ${value}`).join("\n");
    blocks.push(content.detailsTitle ? `${content.detailsTitle}\n${rows}` : rows);
  }
  if (content.action) blocks.push(`${content.action.label}:\n${content.action.url}`);
  if (content.footnote) blocks.push(content.footnote);
  blocks.push(t("mail.signOff", { shopName: content.shop.name }));
  for (const section of content.appendix ?? []) blocks.push(section.title.toUpperCase(), ...section.paragraphs);
  const footerBlock = [
    // "-- " (with the space) is the signature separator mail clients recognise.
    "-- ",
    footer.legalName,
    footer.address,
    footer.vatNumber,
    `${footer.phone} · ${footer.email}`,
    footer.hours,
    ...(content.siteUrl ? [displayUrl(content.siteUrl)] : []),
    footer.note,
    ...(content.unsubscribe ? [`${content.unsubscribe.label}: ${content.unsubscribe.url}`] : []),
  ].join("\n");
  return `${[...blocks, footerBlock].join("\n\n")}\n`;
}

const colors = { page: "#fffaf3", card: "#ffffff", ink: "#1f2a37", muted: "#4b5563", brand: "#0f6b61", line: "#d3f1ec" };
const fontStack = "-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const paragraphStyle = `margin:0 0 16px;font-size:16px;line-height:1.5;color:${colors.ink}`;
const smallStyle = `margin:0 0 8px;font-size:14px;line-height:1.5;color:${colors.muted}`;

function renderHtml(content: EmailContent): string {
  const t = getTranslator(content.locale);
  const footer = footerLines(content);
  const parts: string[] = [];
  parts.push(`<h1 style="margin:0 0 16px;font-size:24px;line-height:1.3;color:${colors.ink}">${htmlText(content.heading)}</h1>`);
  for (const paragraph of content.paragraphs) parts.push(`<p style="${paragraphStyle}">${htmlText(paragraph)}</p>`);
  for (const link of content.links ?? [])
    parts.push(
      `<p style="${paragraphStyle}"><a href="${escapeHtml(link.url)}" style="color:${colors.brand};font-weight:700">${htmlText(link.label)}</a></p>`,
    );
  if (content.details?.length) {
    const caption = content.detailsTitle
      ? `<caption style="text-align:left;padding:0 0 8px;font-size:16px;font-weight:700;color:${colors.ink}">${htmlText(content.detailsTitle)}</caption>`
      : "";
    const rows = content.details
      .map(
        ([label, value]) =>
          `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:8px 12px 8px 0;border-top:1px solid ${colors.line};font-size:15px;font-weight:600;color:${colors.muted}">${htmlText(label)}</th>` +
          `<td style="vertical-align:top;padding:8px 0;border-top:1px solid ${colors.line};font-size:15px;color:${colors.ink};overflow-wrap:anywhere;word-break:break-word">${htmlText(value)}</td></tr>`,
      )
      .join("");
    parts.push(`<table style="width:100%;border-collapse:collapse;margin:0 0 16px">${caption}${rows}</table>`);
  }
  if (content.action) {
    const href = escapeHtml(content.action.url);
    parts.push(
      `<p style="margin:8px 0 16px"><a href="${href}" style="display:inline-block;padding:12px 24px;border-radius:8px;background:${colors.brand};color:#ffffff;font-size:16px;font-weight:700;text-decoration:none">${htmlText(content.action.label)}</a></p>`,
      `<p style="${smallStyle}">${htmlText(t("mail.actionFallback"))}<br><a href="${href}" style="color:${colors.brand};word-break:break-all">${escapeHtml(content.action.url)}</a></p>`,
    );
  }
  if (content.footnote) parts.push(`<p style="${smallStyle}">${htmlText(content.footnote)}</p>`);
  parts.push(
    `<p style="margin:16px 0 0;font-size:16px;line-height:1.5;color:${colors.ink}">${htmlText(t("mail.signOff", { shopName: content.shop.name }))}</p>`,
  );
  for (const section of content.appendix ?? []) {
    parts.push(`<h2 style="margin:24px 0 8px;font-size:18px;line-height:1.3;color:${colors.ink}">${htmlText(section.title)}</h2>`);
    for (const paragraph of section.paragraphs) parts.push(`<p style="${smallStyle}">${htmlText(paragraph)}</p>`);
  }

  const footerHtml = [
    `<strong>${htmlText(footer.legalName)}</strong>`,
    htmlText(footer.address),
    htmlText(footer.vatNumber),
    `<a href="${escapeHtml(telHref(content.shop.phone))}" style="color:${colors.muted}">${htmlText(footer.phone)}</a> · <a href="mailto:${escapeHtml(content.shop.email)}" style="color:${colors.muted}">${htmlText(footer.email)}</a>`,
    htmlText(footer.hours),
    ...(content.siteUrl
      ? [`<a href="${escapeHtml(content.siteUrl)}" style="color:${colors.muted}">${escapeHtml(displayUrl(content.siteUrl))}</a>`]
      : []),
  ].join("<br>");

  const preheader = content.preheader
    ? `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${htmlText(content.preheader)}</div>`
    : "";
  return `<!doctype html>
<html lang="${content.locale}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(content.subject)}</title>
</head>
<body style="margin:0;padding:0;background:${colors.page};font-family:${fontStack}">
<main>
${preheader}<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${colors.page}">
<tr><td align="center" style="padding:24px 12px 0">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:${colors.card};border-radius:12px">
<tr><td style="padding:24px 24px 0;font-size:20px;font-weight:700;color:${colors.brand}">${htmlText(content.shop.name)}</td></tr>
<tr><td style="padding:16px 24px 24px">
${parts.join("\n")}
</td></tr>
</table>
</td></tr>
</table>
</main>
<footer>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${colors.page}">
<tr><td align="center" style="padding:0 12px 24px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px">
<tr><td style="padding:16px 24px;font-size:13px;line-height:1.6;color:${colors.muted}">
<p style="margin:0 0 8px">${footerHtml}</p>
<p style="margin:0">${htmlText(footer.note)}</p>
${content.unsubscribe ? `<p style="margin:8px 0 0"><a href="${escapeHtml(content.unsubscribe.url)}" style="color:${colors.muted}">${htmlText(content.unsubscribe.label)}</a></p>\n` : ""}</td></tr>
</table>
</td></tr>
</table>
</footer>
</body>
</html>
`;
}
