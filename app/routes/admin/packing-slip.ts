import { data } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { variantLabel } from "#common/variant-label.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { escapeHtml, printableDocument } from "#server/html.ts";
import { getOrderView } from "#server/orders/order-view.service.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import type { Route } from "./+types/packing-slip";

/**
 * /admin/ordini/{id}/bolla: a packing slip on its own page, without the shop's header, footer or prices,
 * laid out for A4 paper (print CSS); it opens the print dialog from the page's own print button.
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  // The order alone: the slip needs none of the detail page's workflow moves or payments.
  const order = await getOrderView(db, { orderId: params.orderId, locale });
  if (!order) throw data(null, { status: 404 });
  const { shop } = await getSettings(db, ["shop"]);
  const t = getTranslator(locale);
  const nonce = context.get(requestContext)?.cspNonce ?? "";
  const e = escapeHtml;
  const address = order.delivery.address;
  const dateText = formatShopDateTime(order.createdAt, locale, { dateStyle: "long" });
  const lines = order.lines
    .map((line) => {
      const variant = variantLabel(t, line);
      const personalisation = line.personalisation.map((entry) => `<li>${e(entry.label)}: <strong>«${e(entry.text)}»</strong></li>`).join("");
      return `<tr><td class="check" aria-hidden="true">☐</td><td class="mono">${e(line.sku)}</td><td><strong>${e(line.name)}</strong>${variant ? ` · ${e(variant)}` : ""}${line.isPreorder ? ` · ${e(t("admin.order.preorder"))}` : ""}${personalisation ? `<ul>${personalisation}</ul>` : ""}</td><td class="num">${line.quantity}</td></tr>`;
    })
    .join("");
  const shipTo = address
    ? `${e(order.firstName)} ${e(order.lastName)}<br>${e(address.street)} ${e(address.houseNumber)}<br>${e(address.postcode)} ${e(address.city)} (${e(address.province)}) ${e(address.country)}<br>${e(order.phone)}`
    : `${e(order.firstName)} ${e(order.lastName)}<br>${e(t("order.delivery.collection"))}<br>${e(order.phone)}`;
  const title = t("admin.packingSlip.title", { number: order.number });
  const styles = `  body { font-family: system-ui, sans-serif; color: #111; margin: 2rem auto; max-width: 48rem; padding: 0 1rem; line-height: 1.4; }
  header { display: flex; justify-content: space-between; gap: 2rem; flex-wrap: wrap; border-bottom: 2px solid #111; padding-bottom: 1rem; }
  h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
  table { width: 100%; border-collapse: collapse; margin-top: 1rem; }
  th, td { border-bottom: 1px solid #999; padding: .5rem; text-align: left; vertical-align: top; }
  .num { text-align: right; font-size: 1.2rem; font-weight: bold; }
  .mono { font-family: ui-monospace, monospace; }
  .check { width: 1.5rem; font-size: 1.3rem; }
  ul { margin: .25rem 0 0; padding-left: 1.2rem; }
  button { font: inherit; font-weight: bold; padding: .75rem 1.5rem; border-radius: .5rem; border: 2px solid #1d4e89; background: #1d4e89; color: #fff; cursor: pointer; }
  @media print { button, .no-print { display: none; } body { margin: 0; max-width: none; } @page { size: A4; margin: 15mm; } }`;
  const body = `<p class="no-print"><button type="button" id="print">${e(t("admin.packingSlip.print"))}</button></p>
<header>
  <div><h1>${e(title)}</h1><p>${e(dateText)} · ${e(t(`order.delivery.${order.delivery.method}`))} · ${e(t(`order.payment.${order.payment.method}`))}</p></div>
  <div><strong>${e(shop.name)}</strong><br>${e(shop.street)}<br>${e(shop.postcode)} ${e(shop.city)} (${e(shop.province)})<br>${e(shop.phone)}</div>
</header>
<h2>${e(address ? t("order.delivery.shipTo") : t("order.delivery.collectAt"))}</h2>
<p>${shipTo}</p>
${order.delivery.carrier ? `<p>${e(t("order.delivery.tracking", { carrier: order.delivery.carrier, tracking: order.delivery.trackingNumber ?? "—" }))}</p>` : ""}
<table>
<caption class="no-print" style="text-align:left">${e(t("order.linesTitle"))}</caption>
<thead><tr><th scope="col"><span style="position:absolute;left:-9999px">${e(t("admin.packingSlip.packed"))}</span></th><th scope="col">SKU</th><th scope="col">${e(t("order.product"))}</th><th scope="col" class="num">${e(t("order.quantity"))}</th></tr></thead>
<tbody>${lines}</tbody>
</table>
<p>${e(t("admin.packingSlip.units", { count: order.lines.reduce((total, line) => total + line.quantity, 0) }))}</p>`;
  const html = printableDocument({ locale, title, nonce, styles, body });
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
