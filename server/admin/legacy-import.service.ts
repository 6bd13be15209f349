/**
 * Importer for the old back end's "server form" products (docs/rules.md#catalogue-data): idArticolo,
 * nomeArticolo, prezzo, descrizione, categoria, sottoCategoria, marca, ultimiArrivi, offerta,
 * gratis, correlati, schedaTecnica, personalizzazione, descrizione_personalizzazione,
 * costo_personalizzazione, indiciColori, coloriDisp (per colour: color, image list, size map
 * { [size]: { stock, prenotazione: "Si" | "No", giorni } }).
 *
 * Repeated sku/name pairs (the old sample data has them) are reported, and only the first is
 * imported (docs/rules.md#catalogue-data). The old data has no English texts: the Italian ones stand in.
 * Pictures are file names on the old image storage, unreachable from here: colours get the
 * placeholder until pictures are uploaded (the report counts them).
 */
import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { storedSizeName } from "#common/sizes.ts";
import type { Db } from "#server/db/client.ts";
import { brands, categories, productColours, products, productVariants, subcategories } from "#server/db/schema.ts";
import { setInitialStock } from "#server/stock/stock-ledger.ts";
import { recordAudit } from "./audit.service";
import { parseWith, ProductInput } from "./product-admin.inputs";
import { saveProductInTx } from "./product-admin.service";

export const maxLegacyProducts = 5000;
export const maxLegacyBytes = 10 * 1024 * 1024;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]).optional();
const LegacySize = z.object({ stock: scalar, prenotazione: scalar, giorni: scalar }).partial();
const LegacyColour = z.object({
  color: z.string(),
  image: z.array(z.string()).optional().default([]),
  size: z.record(z.string(), LegacySize).optional().default({}),
});
const LegacyProduct = z.looseObject({
  idArticolo: z.union([z.number().int().positive(), z.string().regex(/^\d{1,9}$/)]),
  sku: z.string().optional(),
  nomeArticolo: z.string(),
  prezzo: z.union([z.number(), z.string()]),
  descrizione: z.string().nullish(),
  categoria: z.string().nullish(),
  sottoCategoria: z.string().nullish(),
  marca: z.string().nullish(),
  ultimiArrivi: scalar,
  offerta: scalar,
  gratis: scalar,
  correlati: scalar,
  schedaTecnica: z.record(z.string(), scalar).nullish(),
  personalizzazione: scalar,
  descrizione_personalizzazione: z.string().nullish(),
  costo_personalizzazione: scalar,
  coloriDisp: z.union([z.array(LegacyColour), z.record(z.string(), LegacyColour.partial({ color: true }))]).nullish(),
});
type LegacyProduct = z.infer<typeof LegacyProduct>;

export type LegacyIssue = { index: number; idArticolo: string | null; field: string; message: string };
export type LegacyDuplicate = { sku: string; name: string; ids: string[] };
export type LegacyImportReport =
  | { ok: false; error: "not-json" | "not-a-list" | "too-many" | "too-large" }
  | {
      ok: true;
      dryRun: boolean;
      total: number;
      imported: number;
      alreadyPresent: string[];
      issues: LegacyIssue[];
      duplicates: LegacyDuplicate[];
      picturesSkipped: number;
    };

const truthy = (value: unknown) =>
  value === true || value === 1 || (typeof value === "string" && ["1", "si", "sì", "true", "yes"].includes(value.trim().toLowerCase()));
const str = (value: unknown) => (typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value).trim() : "");

function legacySku(entry: LegacyProduct) {
  return (entry.sku?.trim() || `LEG-${entry.idArticolo}`).slice(0, 40);
}

function variantSku(base: string, colour: string | null, size: string, taken: Set<string>) {
  const part = (text: string) =>
    text
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, "");
  let sku = [base, colour ? part(colour).slice(0, 8) : "", part(size).slice(0, 8) || "U"].filter(Boolean).join("-").slice(0, 40);
  for (let n = 2; taken.has(sku); n++) sku = `${sku.slice(0, 36)}-${n}`;
  taken.add(sku);
  return sku;
}

/** Centimetres and kilograms in the old data (as its product pages showed them) -> mm and grams. */
function measure(value: unknown, factor: number) {
  const text = str(value).replace(",", ".");
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(text)) return "";
  return String(Math.round(Number(text) * factor));
}

function toFormValues(entry: LegacyProduct): Record<string, string> {
  const sheet = entry.schedaTecnica ?? {};
  const price = typeof entry.prezzo === "number" ? entry.prezzo.toFixed(2) : entry.prezzo;
  const cost = entry.costo_personalizzazione;
  const personalised = truthy(entry.personalizzazione);
  return {
    sku: legacySku(entry),
    nameIt: entry.nomeArticolo,
    nameEn: entry.nomeArticolo,
    shortDescriptionIt: str(entry.descrizione).slice(0, 1000),
    shortDescriptionEn: str(entry.descrizione).slice(0, 1000),
    fullDescriptionIt: str(entry.descrizione),
    fullDescriptionEn: str(entry.descrizione),
    price,
    discountPercent: str(entry.offerta) || "0",
    offerEndsOn: "",
    vatRatePercent: "22",
    isNew: truthy(entry.ultimiArrivi) ? "on" : "",
    isFreeShipping: truthy(entry.gratis) ? "on" : "",
    isOnRequest: "",
    isPublished: "on",
    category: str(entry.categoria),
    subcategory: str(entry.sottoCategoria),
    brands: str(entry.marca),
    related: "",
    lengthMm: measure(sheet.lunghezza, 10),
    widthMm: measure(sheet.larghezza, 10),
    heightMm: measure(sheet.altezza, 10),
    weightGrams: measure(sheet.peso, 1000),
    materialIt: str(sheet.materiale),
    materialEn: str(sheet.materiale),
    personalisation: personalised ? "Testo | Text | 30" : "",
    personalisationDescriptionIt: personalised ? str(entry.descrizione_personalizzazione) || "Non disponibile" : "Non disponibile",
    personalisationDescriptionEn: personalised ? str(entry.descrizione_personalizzazione) || "Not available" : "Not available",
    personalisationCost: typeof cost === "number" ? cost.toFixed(2) : str(cost) || "0",
    affiliateUrl: "",
  };
}

function coloursOf(entry: LegacyProduct) {
  const raw = entry.coloriDisp ?? [];
  const list = Array.isArray(raw) ? raw : Object.entries(raw).map(([key, value]) => ({ ...value, color: value.color ?? key }));
  return list.map((colour) => ({
    colour: colour.color.trim().toLowerCase(),
    pictures: colour.image?.length ?? 0,
    sizes: Object.entries(colour.size ?? {}).map(([size, info]) => {
      const stock = Number(str(info.stock) || "0");
      const days = Number(str(info.giorni) || "0");
      const isPreorder = str(info.prenotazione).toLowerCase() === "si" || str(info.prenotazione).toLowerCase() === "sì";
      return {
        size: storedSizeName(size),
        stock: Number.isSafeInteger(stock) && stock > 0 ? Math.min(stock, 100_000) : 0,
        isPreorder,
        preorderDays: isPreorder ? Math.min(Math.max(days || 1, 1), 365) : null,
      };
    }),
  }));
}

export async function importLegacyProducts(
  db: Db,
  args: { text: string; dryRun: boolean; actorUserId: string | null; now: Date },
): Promise<LegacyImportReport> {
  if (args.text.length > maxLegacyBytes) return { ok: false, error: "too-large" };
  let json: unknown;
  try {
    json = JSON.parse(args.text);
  } catch {
    return { ok: false, error: "not-json" };
  }
  const list = Array.isArray(json)
    ? json
    : json && typeof json === "object" && Array.isArray((json as { prodotti?: unknown }).prodotti)
      ? (json as { prodotti: unknown[] }).prodotti
      : null;
  if (!list) return { ok: false, error: "not-a-list" };
  if (list.length > maxLegacyProducts) return { ok: false, error: "too-many" };

  const issues: LegacyIssue[] = [];
  const firstByPair = new Map<string, number>();
  const pairIds = new Map<string, { sku: string; name: string; ids: string[] }>();
  const ready: { index: number; entry: LegacyProduct; input: ProductInput }[] = [];
  list.forEach((item, index) => {
    const parsed = LegacyProduct.safeParse(item);
    const id = item && typeof item === "object" && "idArticolo" in item ? str((item as { idArticolo: unknown }).idArticolo) : null;
    if (!parsed.success) {
      issues.push({ index, idArticolo: id, field: String(parsed.error.issues[0]?.path[0] ?? "-"), message: "admin.legacy.badEntry" });
      return;
    }
    const entry = parsed.data;
    const sku = legacySku(entry);
    const key = `${sku}\u0000${entry.nomeArticolo.trim().toLowerCase()}`;
    const pair = pairIds.get(key) ?? { sku, name: entry.nomeArticolo, ids: [] };
    pair.ids.push(String(entry.idArticolo));
    pairIds.set(key, pair);
    if (firstByPair.has(key)) return;
    firstByPair.set(key, index);
    const form = parseWith(ProductInput, toFormValues(entry));
    if (!form.ok) {
      for (const [field, message] of Object.entries(form.errors))
        issues.push({ index, idArticolo: String(entry.idArticolo), field, message: message! });
      return;
    }
    if (ready.some((other) => other.input.sku === sku)) {
      issues.push({ index, idArticolo: String(entry.idArticolo), field: "sku", message: "admin.legacy.skuOtherName" });
      return;
    }
    ready.push({ index, entry, input: form.input });
  });
  // Category, subcategory and brand must exist: checked here so the dry run reports them too.
  const categorySlugs = new Set((await db.select({ slug: categories.slug }).from(categories)).map((row) => row.slug));
  const subcategorySlugs = new Set((await db.select({ slug: subcategories.slug }).from(subcategories)).map((row) => row.slug));
  const brandKeys = new Set(
    (await db.select({ slug: brands.slug, name: brands.name }).from(brands)).flatMap((row) => [row.slug, row.name.toLowerCase()]),
  );
  for (const row of [...ready]) {
    const id = String(row.entry.idArticolo);
    const problems: [string, string][] = [];
    if (!categorySlugs.has(row.input.category)) problems.push(["category", "admin.errors.categoryUnknown"]);
    if (row.input.subcategory && !subcategorySlugs.has(row.input.subcategory)) problems.push(["subcategory", "admin.errors.subcategoryUnknown"]);
    if (row.input.brands.some((brand) => !brandKeys.has(brand) && !brandKeys.has(brand.toLowerCase())))
      problems.push(["brands", "admin.errors.brandUnknown"]);
    if (problems.length) {
      ready.splice(ready.indexOf(row), 1);
      for (const [field, message] of problems) issues.push({ index: row.index, idArticolo: id, field, message });
    }
  }
  issues.sort((a, b) => a.index - b.index);
  const duplicates = [...pairIds.values()].filter((pair) => pair.ids.length > 1);
  const existing = ready.length
    ? new Set(
        (
          await db
            .select({ sku: products.sku })
            .from(products)
            .where(
              inArray(
                products.sku,
                ready.map((row) => row.input.sku),
              ),
            )
        ).map((row) => row.sku),
      )
    : new Set<string>();
  const toImport = ready.filter((row) => !existing.has(row.input.sku));
  const picturesSkipped = toImport.reduce((sum, row) => sum + coloursOf(row.entry).reduce((n, colour) => n + colour.pictures, 0), 0);
  const base = { ok: true as const, dryRun: args.dryRun, total: list.length, alreadyPresent: [...existing], duplicates, picturesSkipped };
  if (args.dryRun) return { ...base, imported: toImport.length, issues };

  const imported = await db.transaction(async (tx) => {
    const takenSkus = new Set<string>();
    let count = 0;
    for (const { index, entry, input } of toImport) {
      const saved = await saveProductInTx(tx, {
        productId: null,
        input,
        actorUserId: args.actorUserId,
        now: args.now,
        auditDetails: { source: "legacy", idArticolo: String(entry.idArticolo) },
      });
      if (!saved.ok) {
        issues.push({ index, idArticolo: String(entry.idArticolo), field: "-", message: "admin.legacy.badEntry" });
        continue;
      }
      for (const [position, colour] of coloursOf(entry).entries()) {
        const [colourRow] = await tx
          .insert(productColours)
          .values({ productId: saved.productId, colour: colour.colour, position })
          .onConflictDoNothing()
          .returning({ id: productColours.id });
        if (!colourRow) continue;
        for (const [sizePosition, size] of colour.sizes.entries()) {
          let sku = variantSku(input.sku, colour.colour, size.size, takenSkus);
          while ((await tx.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.sku, sku))).length)
            sku = variantSku(input.sku, colour.colour, `${size.size}X`, takenSkus);
          const [variant] = await tx
            .insert(productVariants)
            .values({
              productId: saved.productId,
              colourId: colourRow.id,
              size: size.size,
              sku,
              isPreorder: size.isPreorder,
              preorderDays: size.preorderDays,
              position: sizePosition,
            })
            .onConflictDoNothing()
            .returning({ id: productVariants.id });
          if (variant)
            await setInitialStock(
              tx,
              { variantId: variant.id, stock: size.stock },
              { reason: "Importazione vecchio gestionale", actorUserId: args.actorUserId },
            );
        }
      }
      count++;
    }
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "import.legacy",
      entity: "import",
      entityId: null,
      details: { total: list.length, imported: count, duplicates: duplicates.length },
    });
    return count;
  });
  issues.sort((a, b) => a.index - b.index);
  return { ...base, imported, issues };
}
