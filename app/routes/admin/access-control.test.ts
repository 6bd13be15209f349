/**
 * Every /admin page and action checks for itself (a parent layout's check protects nothing below
 * it): a guest and a forged session cookie get 401, a customer 403, and nothing is written.
 */
import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { auditLog, giftLists, products } from "#server/db/schema.ts";
import { callerFor, createTestAuthServices, requestFor, routeContext, testPublicUrl, userIdOf } from "#tests/fixtures/accounts.fixtures.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { logIn, registerCustomer } from "#server/accounts/auth-flows.service.ts";
import { createTestDb } from "#tests/db.ts";
import * as audit from "./audit";
import * as customerPage from "./customer";
import * as customers from "./customers";
import * as dashboard from "./dashboard";
import * as giftList from "./gift-list";
import * as giftLists_ from "./gift-lists";
import * as importPage from "./import";
import * as invoices from "./invoices";
import * as invoicesExport from "./invoices-export";
import * as invoiceDocument from "../invoices/invoice-document";
import * as invoiceXml from "../invoices/invoice-xml";
import * as layout from "./layout";
import * as notFound from "./not-found";
import * as order from "./order";
import * as orders_ from "./orders";
import * as newsletter from "./newsletter";
import * as newsletterExport from "./newsletter-export";
import * as outbox from "./outbox";
import * as packingSlip from "./packing-slip";
import * as rates from "./rates";
import * as sdi from "./sdi";
import * as sdiInvoice from "./sdi-invoice";
import * as takings from "./takings";
import * as takingsExport from "./takings-export";
import * as settings from "./settings";
import * as productEdit from "./product-edit";
import * as products_ from "./products";
import * as productsExport from "./products-export";

const slow = { timeout: 120_000 };
/** A real list of the customer's: a forbidden close must leave it open. */
const listId = "00000000-0000-4000-8000-000000000001";
const password = "Tr3no-Blu-Vesuvio";

type Module = { loader: (args: never) => unknown; action?: (args: never) => unknown };
const pages: [Module, string, Record<string, string>][] = [
  [layout, "/admin", {}],
  [dashboard, "/admin", {}],
  [dashboard, "/en/admin", {}],
  [products_, "/admin/prodotti", {}],
  [productEdit, "/admin/prodotti/nuovo", {}],
  [productEdit, "/admin/prodotti/24", { id: "24" }],
  [productsExport, "/admin/prodotti/esporta.csv", {}],
  [importPage, "/admin/importa", {}],
  [importPage, "/admin/importa/00000000-0000-0000-0000-000000000000", { jobId: "00000000-0000-0000-0000-000000000000" }],
  [audit, "/admin/registro", {}],
  [notFound, "/admin/non-esiste", { "*": "non-esiste" }],
  [giftLists_, "/admin/liste-regalo", {}],
  [giftLists_, "/en/admin/liste-regalo", {}],
  [giftList, `/admin/liste-regalo/${listId}`, { giftListId: listId }],
  [customers, "/admin/clienti?q=anna", {}],
  [customerPage, "/admin/clienti/anna", { userId: "anna" }],
  [orders_, "/admin/ordini", {}],
  [order, "/admin/ordini/00000000-0000-4000-8000-000000000000", { orderId: "00000000-0000-4000-8000-000000000000" }],
  [packingSlip, "/admin/ordini/00000000-0000-4000-8000-000000000000/bolla", { orderId: "00000000-0000-4000-8000-000000000000" }],
  [settings, "/admin/impostazioni", {}],
  [invoices, "/admin/fatture?mese=2026-11", {}],
  [invoicesExport, "/admin/fatture/esporta/2026-11", { month: "2026-11" }],
  [invoiceDocument, "/admin/fatture/00000000-0000-4000-8000-000000000000", { invoiceId: "00000000-0000-4000-8000-000000000000" }],
  [invoiceXml, "/admin/fatture/00000000-0000-4000-8000-000000000000/xml", { invoiceId: "00000000-0000-4000-8000-000000000000" }],
  [sdi, "/admin/sdi", {}],
  [sdiInvoice, "/admin/sdi/00000000-0000-4000-8000-000000000000", { invoiceId: "00000000-0000-4000-8000-000000000000" }],
  [takings, "/admin/corrispettivi?mese=2026-11", {}],
  [takingsExport, "/admin/corrispettivi/esporta/2026-11", { month: "2026-11" }],
  [outbox, "/admin/posta", {}],
  [newsletter, "/admin/newsletter", {}],
  [newsletter, "/en/admin/newsletter?status=pending", {}],
  [newsletterExport, "/admin/newsletter/iscritti.csv", {}],
  [rates, "/admin/cambi", {}],
  [rates, "/en/admin/cambi", {}],
];
const actions: [Module, string, Record<string, string>, Record<string, string>][] = [
  [productEdit, "/admin/prodotti/nuovo", {}, { intent: "save", sku: "X-1", nameIt: "X", nameEn: "X", price: "1", category: "A-spasso" }],
  ...["colour-add", "image-add", "image-remove", "variant-add", "variant-update", "stock-adjust"].map(
    (intent) =>
      [
        productEdit,
        "/admin/prodotti/24",
        { id: "24" },
        { intent, colour: "white", variantId: "1", delta: "5", reason: "x", sku: "Y-1", stock: "1", imageId: "1" },
      ] as [Module, string, Record<string, string>, Record<string, string>],
  ),
  [importPage, "/admin/importa", {}, { kind: "csv", mode: "run" }],
  ...["status", "mark-paid", "cancel", "refund", "issue-invoice"].map(
    (intent) =>
      [
        order,
        "/admin/ordini/00000000-0000-4000-8000-000000000000",
        { orderId: "00000000-0000-4000-8000-000000000000" },
        { intent, to: "preparing" },
      ] as [Module, string, Record<string, string>, Record<string, string>],
  ),
  [giftList, `/admin/liste-regalo/${listId}`, { giftListId: listId }, { intent: "close" }],
  [settings, "/admin/impostazioni", {}, { key: "newsletter", url: "https://evil.example" }],
  [settings, "/admin/impostazioni", {}, { key: "fiscal", denomination: "Evil", vatNumber: "01234567897" }],
  [outbox, "/admin/posta", {}, { id: "1" }],
  [
    sdiInvoice,
    "/admin/sdi/00000000-0000-4000-8000-000000000000",
    { invoiceId: "00000000-0000-4000-8000-000000000000" },
    { intent: "resend", vatNumber: "01234567897", sdiCode: "", pec: "" },
  ],
  [settings, "/admin/impostazioni", {}, { key: "invoicing", issueAt: "payment" }],
  ...["set", "clear", "refresh"].map(
    (intent) =>
      [rates, "/admin/cambi", {}, { intent, currency: "USD", rate: "2" }] as [Module, string, Record<string, string>, Record<string, string>],
  ),
];

async function statusOf(run: () => unknown): Promise<number> {
  try {
    const value = await run();
    if (value instanceof Response) return value.status;
    if (value && typeof value === "object" && "init" in value) return (value as { init: ResponseInit | null }).init?.status ?? 200;
    return 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    if (error && typeof error === "object" && "init" in error) return (error as { init: ResponseInit | null }).init?.status ?? 500;
    throw error;
  }
}

test("a guest, a forged cookie and a customer get 401/401/403 on every /admin page and action; nothing is written", slow, async () => {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const services = createTestAuthServices(handle.db);
  const context = routeContext(services);
  await registerCustomer(services, callerFor("/"), {
    name: "Anna Esposito",
    email: "anna@example.com",
    password,
    passwordConfirm: password,
    privacy: "on",
  });
  const login = await logIn(services, callerFor("/"), { email: "anna@example.com", password });
  const customer = new CookieJar().take(login.ok ? login.headers : null);
  const cookieName = customer.header().split("=")[0]!;
  const ownerUserId = (await userIdOf(handle.db, "anna@example.com"))!;
  await handle.db
    .insert(giftLists)
    .values({ id: listId, code: "ANNA2345", ownerUserId, title: "Lista di Anna", eventDate: "2030-05-01", celebratedNames: "Sofia" });
  const who: [string, Record<string, string>, number][] = [
    ["guest", {}, 401],
    ["forged", { Cookie: `${cookieName}=forged-token.forged-signature` }, 401],
    ["customer", { Cookie: customer.header() }, 403],
  ];
  for (const [name, headers, expected] of who) {
    for (const [module, path, params] of pages) {
      const status = await statusOf(() =>
        module.loader({ request: requestFor(path, { headers }), url: new URL(path, testPublicUrl), params, context } as never),
      );
      expect(status, `${name} GET ${path}`).toBe(expected);
    }
    for (const [module, path, params, form] of actions) {
      const status = await statusOf(() =>
        module.action!({ request: requestFor(path, { headers, form }), url: new URL(path, testPublicUrl), params, context } as never),
      );
      expect(status, `${name} POST ${path} ${form.intent ?? ""}`).toBe(expected);
    }
  }
  expect(await handle.db.$count(products)).toBe(0);
  expect(await handle.db.$count(auditLog)).toBe(0);
  expect(await handle.db.$count(giftLists, eq(giftLists.status, "open"))).toBe(1);
});
