import { localeOfPath, localizedHref } from "#common/locale.ts";
import { findVisibleInvoice, invoicePageResponse } from "./invoice-page.server";
import type { Route } from "./+types/invoice-document";

/**
 * An issued invoice or credit note, printable: /admin/fatture/{id} for staff, /ordine/{order}/fattura/{id}
 * for whoever may see the order (its link's token travels on to the XML and back to the order).
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const invoice = await findVisibleInvoice(context, request, url, params);
  const locale = localeOfPath(url.pathname);
  const token = url.searchParams.get("t");
  const query = token ? `?${new URLSearchParams({ t: token })}` : "";
  const links =
    params.orderId === undefined
      ? { xmlHref: `${url.pathname}/xml`, backHref: localizedHref(`/admin/ordini/${invoice.orderId}`, locale) }
      : { xmlHref: `${url.pathname}/xml${query}`, backHref: `${localizedHref(`/ordine/${invoice.orderId}`, locale)}${query}` };
  return invoicePageResponse(context, url, invoice, links);
}
