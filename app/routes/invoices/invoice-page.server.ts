/**
 * The edge of an issued invoice or credit note: who may see it (staff, or whoever may see its order),
 * its printable page (plain HTML with print CSS, like the packing slip: no shop frame, A4 on paper) and
 * its FatturaPA file as a download.
 */
import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { formatMoney } from "#common/format.ts";
import { localeOfPath, type Locale } from "#common/locale.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getSessionUser, requireAdmin } from "#server/http/guards.ts";
import { escapeHtml, printableDocument } from "#server/html.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { fatturaPaFileName } from "#server/invoices/fatturapa.ts";
import type { InvoiceDocument } from "#server/invoices/invoice.ts";
import { findOrderInvoice, getInvoice, type IssuedInvoice } from "#server/invoices/invoice.service.ts";
import { isOrderAccessTokenValid } from "#server/orders/order-access.ts";

const Id = z.uuid();
type Context = Readonly<RouterContextProvider>;

/**
 * The document, for staff under /admin/fatture/{id}, or under /ordine/{order}/fattura/{id} for whoever may
 * see the order (its link's token, the customer who placed it, staff). Anyone else: the same 404.
 */
export async function findVisibleInvoice(
  context: Context,
  request: Request,
  url: URL,
  params: { orderId?: string; invoiceId: string },
): Promise<IssuedInvoice> {
  const { db, env } = context.get(shopContext);
  if (params.orderId === undefined) await requireAdmin(context, request);
  const invoiceId = Id.safeParse(params.invoiceId);
  if (!invoiceId.success) throw data(null, { status: 404 });
  if (params.orderId === undefined) {
    const invoice = await getInvoice(db, invoiceId.data);
    if (!invoice) throw data(null, { status: 404 });
    return invoice;
  }
  const orderId = Id.safeParse(params.orderId);
  if (!orderId.success) throw data(null, { status: 404 });
  const found = await findOrderInvoice(db, { orderId: orderId.data, invoiceId: invoiceId.data });
  if (!found) throw data(null, { status: 404 });
  if (isOrderAccessTokenValid(resolveAuthSecret(env), orderId.data, url.searchParams.get("t"))) return found.invoice;
  const user = await getSessionUser(context, request);
  if (user && (user.role === "admin" || user.id === found.orderUserId)) return found.invoice;
  throw data(null, { status: 404 });
}

export function invoiceXmlResponse(invoice: IssuedInvoice): Response {
  return new Response(invoice.xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fatturaPaFileName(invoice.document)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

function partyLines(document: InvoiceDocument, t: ReturnType<typeof getTranslator>) {
  const e = escapeHtml;
  const { seller, buyer } = document;
  const place = (address: { street: string; houseNumber: string | null; postcode: string; city: string; province: string | null }) =>
    `${e(address.street)}${address.houseNumber ? ` ${e(address.houseNumber)}` : ""}<br>${e(address.postcode)} ${e(address.city)}${address.province ? ` (${e(address.province)})` : ""}`;
  const sellerHtml = [
    `<strong>${e(seller.denomination)}</strong>`,
    place(seller),
    e(t("invoices.document.vatNumber", { value: `IT${seller.vatNumber}` })),
    e(t("invoices.document.fiscalCode", { value: seller.fiscalCode })),
    seller.reaOffice && seller.reaNumber ? e(t("invoices.document.rea", { office: seller.reaOffice, number: seller.reaNumber })) : null,
    e(t("invoices.document.regime", { value: seller.regimeFiscale })),
  ];
  const buyerHtml =
    buyer.kind === "private"
      ? [
          `<strong>${e(buyer.firstName)} ${e(buyer.lastName)}</strong>`,
          place(buyer.address),
          e(t("invoices.document.fiscalCode", { value: buyer.fiscalCode })),
        ]
      : [
          `<strong>${e(buyer.name)}</strong>`,
          place(buyer.address),
          e(t("invoices.document.vatNumber", { value: `IT${buyer.vatNumber}` })),
          buyer.sdiCode ? e(t("invoices.document.sdiCode", { value: buyer.sdiCode })) : null,
          buyer.pec ? e(t("invoices.document.pec", { value: buyer.pec })) : null,
        ];
  return { seller: sellerHtml.filter(Boolean).join("<br>"), buyer: buyerHtml.filter(Boolean).join("<br>") };
}

/** The printable page: the same figures as the XML, from the same document. */
export function invoicePageResponse(context: Context, url: URL, invoice: IssuedInvoice, links: { xmlHref: string; backHref: string }): Response {
  const locale: Locale = localeOfPath(url.pathname);
  const t = getTranslator(locale);
  const e = escapeHtml;
  const nonce = context.get(requestContext)?.cspNonce ?? "";
  const document = invoice.document;
  const money = (cents: number) => e(formatMoney(cents, locale));
  const day = (isoDate: string) => formatShopDateTime(isoDate, locale, { dateStyle: "long" });
  const title = t(`invoices.document.${document.kind}`, { number: document.number });
  const parties = partyLines(document, t);
  const lines = document.lines
    .map(
      (line) =>
        `<tr><td>${e(line.description)}</td><td class="num">${line.quantity}</td><td class="num">${money(Math.round(line.netCents / line.quantity))}</td><td class="num">${line.vatRatePercent}%</td><td class="num">${money(line.netCents)}</td></tr>`,
    )
    .join("");
  const summary = document.vatSummary
    .map(
      (row) =>
        `<tr><td class="num">${row.vatRatePercent}%</td><td class="num">${money(row.netCents)}</td><td class="num">${money(row.vatCents)}</td><td class="num">${money(row.grossCents)}</td></tr>`,
    )
    .join("");
  const styles = `  body { font-family: system-ui, sans-serif; color: #111; margin: 2rem auto; max-width: 52rem; padding: 0 1rem; line-height: 1.4; }
  header { display: flex; justify-content: space-between; gap: 1rem 2rem; flex-wrap: wrap; border-bottom: 2px solid #111; padding-bottom: 1rem; }
  h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
  .parties { display: grid; gap: 1rem 2rem; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); }
  .table { overflow-x: auto; }
  table { width: 100%; border-collapse: collapse; }
  caption { text-align: left; font-weight: bold; font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
  th, td { border-bottom: 1px solid #767676; padding: .4rem .5rem; text-align: left; vertical-align: top; }
  .num { text-align: right; white-space: nowrap; }
  .total { font-size: 1.3rem; font-weight: bold; text-align: right; margin-top: 1rem; }
  .note { font-size: .9rem; color: #444; margin-top: 2rem; }
  .actions { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }
  .actions a { color: #1d4e89; font-weight: bold; }
  button { font: inherit; font-weight: bold; padding: .75rem 1.5rem; border-radius: .5rem; border: 2px solid #1d4e89; background: #1d4e89; color: #fff; cursor: pointer; }
  @media print { .no-print { display: none; } body { margin: 0; max-width: none; } @page { size: A4; margin: 15mm; } }`;
  const body = `<nav class="no-print actions" aria-label="${e(title)}"><button type="button" id="print">${e(t("invoices.document.print"))}</button><a href="${e(links.xmlHref)}" download>${e(t("invoices.document.downloadXml"))}</a><a href="${e(links.backHref)}">${e(t("invoices.document.back"))}</a></nav>
<main>
<header>
  <div><h1>${e(title)}</h1><p>${e(t("invoices.document.date", { date: day(document.issuedOn) }))}<br>${e(t("invoices.document.order", { number: document.orderNumber, date: day(document.orderDate) }))}${document.corrects ? `<br>${e(t("invoices.document.corrects", { number: document.corrects.number, date: day(document.corrects.issuedOn) }))}` : ""}</p></div>
</header>
<div class="parties">
  <section aria-labelledby="seller"><h2 id="seller">${e(t("invoices.document.seller"))}</h2><p>${parties.seller}</p></section>
  <section aria-labelledby="buyer"><h2 id="buyer">${e(t("invoices.document.buyer"))}</h2><p>${parties.buyer}</p></section>
</div>
<div class="table"><table>
<caption>${e(t("invoices.document.lines"))}</caption>
<thead><tr><th scope="col">${e(t("invoices.document.description"))}</th><th scope="col" class="num">${e(t("invoices.document.quantity"))}</th><th scope="col" class="num">${e(t("invoices.document.unitPrice"))}</th><th scope="col" class="num">${e(t("invoices.document.vatRate"))}</th><th scope="col" class="num">${e(t("invoices.document.amount"))}</th></tr></thead>
<tbody>${lines}</tbody>
</table></div>
<div class="table"><table>
<caption>${e(t("invoices.document.summary"))}</caption>
<thead><tr><th scope="col" class="num">${e(t("invoices.document.vatRate"))}</th><th scope="col" class="num">${e(t("invoices.document.taxable"))}</th><th scope="col" class="num">${e(t("invoices.document.vat"))}</th><th scope="col" class="num">${e(t("invoices.document.gross"))}</th></tr></thead>
<tbody>${summary}</tbody>
</table></div>
<p class="total">${e(t("invoices.document.total"))}: ${money(document.totalCents)}</p>
<p>${e(t("invoices.document.payment", { method: t(`invoices.document.paymentMethods.${document.paymentMethod}`) }))}</p>
<p class="note">${e(t("invoices.document.courtesy"))}</p>
</main>`;
  const html = printableDocument({ locale, title, nonce, styles, body });
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" } });
}
