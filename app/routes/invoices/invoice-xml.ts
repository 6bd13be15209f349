import { findVisibleInvoice, invoiceXmlResponse } from "./invoice-page.server";
import type { Route } from "./+types/invoice-xml";

/** The FatturaPA file of an issued invoice or credit note, as issued: for staff, or whoever may see its order. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  return invoiceXmlResponse(await findVisibleInvoice(context, request, url, params));
}
