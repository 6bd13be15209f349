/**
 * The bad-input list, sent to the back office's own actions as a browser sends it (form
 * posts, multipart uploads with a file name): negative price or stock, discount 101, an unknown
 * category, a 20 MB picture, a text file named .jpg, a CSV with wrong columns or 100,000 rows. Each
 * gets its message (a key of the catalogue, said here in Italian) and nothing is half-written.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { callerFor, createTestAuthServices, routeContext, testPublicUrl, userIdOf } from "#tests/fixtures/accounts.fixtures.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { logIn, registerCustomer } from "#server/accounts/auth-flows.service.ts";
import { productForm, seedTaxonomy } from "#tests/fixtures/admin.fixtures.ts";
import { getImportJob } from "#server/admin/import-jobs.service.ts";
import { csvColumns } from "#server/admin/product-csv.ts";
import { maxCsvRows } from "#server/admin/product-csv.service.ts";
import { auditLog, productColours, productImages, products, productVariants, stockMovements, users } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { createTestDb } from "#tests/db.ts";
import * as importPage from "./import";
import * as outbox from "./outbox";
import * as productEdit from "./product-edit";

const slow = { timeout: 180_000 };
const password = "Tr3no-Blu-Vesuvio";
const t = getTranslator("it");

async function openBackOffice() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-admin-bad-input-"));
  onTestFinished(() => fs.rmSync(mediaDir, { recursive: true, force: true }));
  const services = createTestAuthServices(handle.db, { MEDIA_DIR: mediaDir });
  await seedTaxonomy(handle.db);
  await registerCustomer(services, callerFor("/"), {
    name: "Carla Admin",
    email: "carla@bimbifelici.test",
    password,
    passwordConfirm: password,
    privacy: "on",
  });
  await handle.db.update(users).set({ role: "admin" }).where(eq(users.email, "carla@bimbifelici.test"));
  const login = await logIn(services, callerFor("/"), { email: "carla@bimbifelici.test", password });
  const jar = new CookieJar().take(login.ok ? login.headers : null);
  const context = routeContext(services);
  type Action = (args: never) => unknown;
  /** Posts `fields` (strings, or files as [bytes, name, type]) as multipart, like the admin forms. */
  const post = async (
    module: { action: Action },
    url: string,
    params: Record<string, string>,
    fields: Record<string, string | [Buffer, string, string]>,
  ) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value === "string") body.set(name, value);
      else body.set(name, new Blob([new Uint8Array(value[0])], { type: value[2] }), value[1]);
    }
    const request = new Request(new URL(url, testPublicUrl), { method: "POST", body, headers: { Cookie: jar.header(), Origin: testPublicUrl } });
    return answerOf(await module.action({ request, url: new URL(url, testPublicUrl), params, context } as never));
  };
  return { db: handle.db, mediaDir, post, adminId: (await userIdOf(handle.db, "carla@bimbifelici.test"))! };
}

/** An action's answer: the status and the data the page renders (a redirect's location). */
function answerOf(value: unknown): { status: number; data: Record<string, unknown>; location?: string } {
  if (value instanceof Response) return { status: value.status, data: {}, location: value.headers.get("Location") ?? undefined };
  const wrapped = value as { data: Record<string, unknown>; init: ResponseInit | null };
  return { status: wrapped.init?.status ?? 200, data: wrapped.data };
}

/** The message keys of a refused form, said as the page says them. */
const messages = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data.errors as Record<string, string>).map(([field, key]) => [field, t(key)]));

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

test(
  "product and stock forms: negative price or stock, discount 101 and an unknown category are refused with messages; nothing is written",
  slow,
  async () => {
    const { db, post } = await openBackOffice();
    const refused = await post(productEdit, "/admin/prodotti/nuovo", {}, { intent: "save", ...productForm({ price: "-5", discountPercent: "101" }) });
    expect(refused.status).toBe(400);
    expect(messages(refused.data)).toMatchObject({ price: "Il prezzo non può essere negativo.", discountPercent: "Lo sconto va da 0 a 100." });
    const unknown = await post(productEdit, "/admin/prodotti/nuovo", {}, { intent: "save", ...productForm({ category: "giardinaggio" }) });
    expect(unknown.status).toBe(400);
    expect(messages(unknown.data)).toEqual({ category: "Categoria sconosciuta." });
    expect(await db.$count(products)).toBe(0);
    expect(await db.$count(auditLog)).toBe(0);

    const created = await post(productEdit, "/admin/prodotti/nuovo", {}, { intent: "save", ...productForm() });
    const productId = /\/admin\/prodotti\/(\d+)\?done=created$/.exec(created.location ?? "")?.[1];
    expect(productId, created.location).toBeDefined();
    const at = `/admin/prodotti/${productId}`;
    const negative = await post(
      productEdit,
      at,
      { id: productId! },
      { intent: "variant-add", colourId: "", size: "M", sku: "BFE-TEST-1-M", stock: "-3", isPreorder: "", preorderDays: "" },
    );
    expect(messages(negative.data)).toMatchObject({ stock: "Le scorte non possono essere negative." });
    expect(await db.$count(productVariants)).toBe(0);
    await post(
      productEdit,
      at,
      { id: productId! },
      { intent: "variant-add", colourId: "", size: "M", sku: "BFE-TEST-1-M", stock: "2", isPreorder: "", preorderDays: "" },
    );
    const [variant] = await db.select().from(productVariants);
    const below = await post(
      productEdit,
      at,
      { id: productId! },
      { intent: "stock-adjust", variantId: String(variant!.id), delta: "-5", reason: "Inventario" },
    );
    expect(messages(below.data)).toMatchObject({ delta: "Non ci sono abbastanza pezzi da togliere." });
    const [after] = await db.select({ stock: productVariants.stock }).from(productVariants);
    expect(after!.stock).toBe(2);
    expect(await db.$count(stockMovements)).toBe(1);
  },
);

test(
  "uploads and imports: a 20 MB picture, a text file named .jpg, a CSV with wrong columns or 100,000 rows: messages, nothing written",
  slow,
  async () => {
    const { db, mediaDir, post, adminId } = await openBackOffice();
    const created = await post(productEdit, "/admin/prodotti/nuovo", {}, { intent: "save", ...productForm() });
    const productId = /\/admin\/prodotti\/(\d+)/.exec(created.location ?? "")![1]!;
    const at = `/admin/prodotti/${productId}`;
    await post(productEdit, at, { id: productId }, { intent: "colour-add", colour: "white" });
    const [colour] = await db.select({ id: productColours.id }).from(productColours);
    const filesBefore = filesUnder(mediaDir);

    // 20 MB: the body is read no further than the limit, the page answers with the message.
    const huge = await post(
      productEdit,
      at,
      { id: productId },
      { intent: "image-add", colourId: String(colour!.id), image: [Buffer.alloc(20 * 1024 * 1024, 0xff), "culla.jpg", "image/jpeg"] },
    );
    expect(huge.status).toBe(400);
    expect(messages(huge.data)).toEqual({ image: "La foto supera gli 8 MB." });
    const text = await post(
      productEdit,
      at,
      { id: productId },
      { intent: "image-add", colourId: String(colour!.id), image: [Buffer.from("non sono una foto, solo testo"), "culla.jpg", "image/jpeg"] },
    );
    expect(text.status).toBe(400);
    expect(messages(text.data)).toEqual({ image: "Il file non è un'immagine leggibile." });
    expect(await db.$count(productImages)).toBe(0);
    expect(filesUnder(mediaDir)).toEqual(filesBefore);

    const auditBefore = await db.$count(auditLog);
    const csvFile = (content: string): [Buffer, string, string] => [Buffer.from(content), "prodotti.csv", "text/csv"];
    const wrong = csvFile("sku;nome;prezzo\nA-1;Body;12,50\n");
    const dry = await post(importPage, "/admin/importa", {}, { kind: "csv", mode: "dry", file: wrong });
    expect(dry.status).toBe(400);
    expect(dry.data.csv).toMatchObject({ ok: false, error: "columns", unknown: ["sku", "nome", "prezzo"] });
    expect(t("admin.import.wrongColumns", { missing: "product_sku", unknown: "sku" })).toMatch(
      /^Colonne non valide: il file è rifiutato per intero\./,
    );

    // A real run continues after the request: its page shows the same refusal, and nothing was imported.
    const runReport = async (file: [Buffer, string, string]) => {
      const started = await post(importPage, "/admin/importa", {}, { kind: "csv", mode: "run", file });
      const jobId = /\/admin\/importa\/([0-9a-f-]{36})$/.exec(started.location ?? "")?.[1];
      expect(jobId, started.location).toBeDefined();
      const finished = async () => {
        const job = await getImportJob(db, { id: jobId!, now: new Date() });
        return job?.state === "running" ? null : job;
      };
      await expect.poll(finished, { timeout: 60_000 }).not.toBeNull();
      const job = (await finished())!;
      expect(job).toMatchObject({ ownerUserId: adminId, state: "finished" });
      return job.report;
    };
    expect(await runReport(wrong)).toMatchObject({ ok: false, error: "columns" });
    const row = csvColumns.map(
      (column) =>
        ({ product_sku: "CSV-1", name_it: "Body", name_en: "Body", price: "12,50", category: "abbigliamento", variant_sku: "CSV-1-M", stock: "1" })[
          column as "price"
        ] ?? "",
    );
    const rows = [csvColumns.join(";"), ...Array.from({ length: 100_000 }, () => row.join(";"))].join("\n");
    expect(await runReport(csvFile(rows))).toEqual({ ok: false, error: "too-many-rows", rows: 100_000, limit: maxCsvRows });
    expect(t("admin.import.tooManyRows", { rows: 100_000, limit: maxCsvRows })).toMatch(
      /^Il file ha 100000 righe: il limite è 20000 per importazione\./,
    );
    expect(await db.$count(products)).toBe(1);
    expect(await db.$count(auditLog)).toBe(auditBefore);
  },
);

test("resending a mail that is not in the outbox answers 404", slow, async () => {
  const { post } = await openBackOffice();
  await expect(post(outbox, "/admin/posta", {}, { id: "999999" })).rejects.toMatchObject({ init: { status: 404 } });
});
