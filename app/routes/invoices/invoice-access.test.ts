/**
 * Who sees an invoice: under the order's address, whoever may see the order (its link's token, the
 * customer who placed it); anyone else, and another order's address, get the order page's 404. The
 * staff's address needs the back office.
 */
import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { orders } from "#server/db/schema.ts";
import { issueInvoice } from "#server/invoices/invoice.service.ts";
import { markOrderPaid } from "#server/orders/order.service.ts";
import { orderAccessToken } from "#server/orders/order-access.ts";
import { createTestDb } from "#tests/db.ts";
import { createTestAuthServices, requestFor, routeContext, testPublicUrl } from "#tests/fixtures/accounts.fixtures.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder } from "#tests/fixtures/checkout.fixtures.ts";
import * as invoiceDocument from "./invoice-document";
import * as invoiceXml from "./invoice-xml";

async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    const value = await run();
    return value instanceof Response ? value.status : 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    if (error && typeof error === "object" && "init" in error) return (error as { init: ResponseInit | null }).init?.status ?? 500;
    throw error;
  }
}

test("an invoice shows to the holder of its order's link, downloads as XML, and is hidden from everyone else", async () => {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const { db } = handle;
  const services = createTestAuthServices(db);
  const context = routeContext(services);
  const paidOrder = async () => {
    const { variantId } = await createProduct(db, { nameIt: "Libro morbido", priceCents: 1_290 });
    const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
    const placed = await placeTestOrder(db, { cartId, input: checkoutInput({ invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" }) });
    if (!placed.ok) throw new Error(placed.error);
    const [order] = await db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, placed.orderId));
    await markOrderPaid(db, { orderId: placed.orderId, provider: "test", providerRef: null, amountCents: order!.totalCents, now: new Date() });
    const issued = await issueInvoice(db, { orderId: placed.orderId, actorUserId: null, now: new Date() });
    if (!issued.ok) throw new Error(issued.error);
    return { orderId: placed.orderId, invoiceId: issued.invoice.id };
  };
  const mine = await paidOrder();
  const other = await paidOrder();
  const token = orderAccessToken(resolveAuthSecret(services.env), mine.orderId);
  const call = (module: typeof invoiceDocument | typeof invoiceXml, path: string, params: Record<string, string>) =>
    module.loader({ request: requestFor(path), url: new URL(path, testPublicUrl), params, context } as never);

  const page = `/ordine/${mine.orderId}/fattura/${mine.invoiceId}`;
  const shown = await call(invoiceDocument, `${page}?t=${token}`, mine);
  expect(shown.status).toBe(200);
  const html = await shown.text();
  expect(html).toMatch(/<h1>Fattura n\. \d{4}\/0001<\/h1>/);
  expect(html).toContain("Codice fiscale RSSMRA85T10A562S");
  expect(html).toContain(`href="${page}/xml?t=${token}"`);
  const xml = await call(invoiceXml, `${page}/xml?t=${token}`, mine);
  expect(xml.headers.get("Content-Disposition")).toMatch(/^attachment; filename="IT07412580636_[0-9A-Z]F[0-9A-Z]{3}\.xml"$/);
  expect(await xml.text()).toContain("<CodiceFiscale>RSSMRA85T10A562S</CodiceFiscale>");

  // No token, another order's token, another order's invoice under this order: the same 404.
  expect(await statusOf(() => call(invoiceDocument, page, mine))).toBe(404);
  const otherToken = orderAccessToken(resolveAuthSecret(services.env), other.orderId);
  expect(await statusOf(() => call(invoiceDocument, `${page}?t=${otherToken}`, mine))).toBe(404);
  const crossed = { orderId: mine.orderId, invoiceId: other.invoiceId };
  expect(await statusOf(() => call(invoiceXml, `/ordine/${mine.orderId}/fattura/${other.invoiceId}/xml?t=${token}`, crossed))).toBe(404);
  expect(await statusOf(() => call(invoiceDocument, `/ordine/${mine.orderId}/fattura/x?t=${token}`, { ...mine, invoiceId: "x" }))).toBe(404);
  // The staff's address: a guest holding the order's link is still a guest there.
  expect(await statusOf(() => call(invoiceDocument, `/admin/fatture/${mine.invoiceId}?t=${token}`, { invoiceId: mine.invoiceId }))).toBe(401);
});
