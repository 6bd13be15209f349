/**
 * Every URL of app/routes.ts made concrete: optional segments ("en?") both ways, parameters filled
 * with real values of the sample catalogue (or a plausible unknown one), and whether the module is a
 * page (a default export) and has an action. The security suite walks them all, so a new route is
 * checked the day it is added.
 */
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { asc, eq } from "drizzle-orm";
import routes from "#app/routes.ts";
import type { Db } from "#server/db/client.ts";
import { brands, categories, products, subcategories } from "#server/db/schema.ts";

export type ConcreteRoute = { url: string; file: string; pattern: string; isPage: boolean; hasAction: boolean };

function flatten(entries: RouteConfigEntry[]): { pattern: string; file: string }[] {
  return entries.flatMap((entry) => [
    ...(entry.path !== undefined || entry.index ? [{ pattern: entry.path ?? "", file: entry.file }] : []),
    ...flatten(entry.children ?? []),
  ]);
}

/** Real values for the parameters that name something in the catalogue; anything else gets a harmless unknown one. */
export async function sampleParams(db: Db): Promise<Record<string, string>> {
  const [product] = await db.select({ id: products.id }).from(products).where(eq(products.isPublished, true)).orderBy(asc(products.id)).limit(1);
  const [category] = await db.select({ slug: categories.slug }).from(categories).orderBy(asc(categories.id)).limit(1);
  const [subcategory] = await db.select({ slug: subcategories.slug }).from(subcategories).orderBy(asc(subcategories.id)).limit(1);
  const [brand] = await db.select({ slug: brands.slug }).from(brands).orderBy(asc(brands.id)).limit(1);
  return {
    id: String(product!.id),
    productId: String(product!.id),
    category: category!.slug,
    subcategory: subcategory!.slug,
    brand: brand!.slug,
    orderId: "00000000-0000-4000-8000-000000000000",
    ref: "sessione-sconosciuta",
    codice: "ABCDEFGH",
    jobId: "1",
    "*": "pagina-che-non-esiste",
  };
}

function expand(pattern: string, params: Record<string, string>): string[] {
  let urls = [""];
  for (const segment of pattern.split("/").filter(Boolean)) {
    const optional = segment.endsWith("?");
    const name = optional ? segment.slice(0, -1) : segment;
    const value = name === "*" ? params["*"]! : name.startsWith(":") ? (params[name.slice(1)] ?? "x") : name;
    const withSegment = urls.map((url) => `${url}/${encodeURIComponent(value)}`);
    urls = optional ? [...urls, ...withSegment] : withSegment;
  }
  return urls.map((url) => url || "/");
}

/** `params` replace the sample values, e.g. with another customer's order and list to try them all. */
export async function concreteRoutes(db: Db, params: Record<string, string> = {}): Promise<ConcreteRoute[]> {
  const params_ = { ...(await sampleParams(db)), ...params };
  const found: ConcreteRoute[] = [];
  for (const { pattern, file } of flatten(routes)) {
    const module = (await import(/* @vite-ignore */ path.resolve("app", file))) as Record<string, unknown>;
    for (const url of expand(pattern, params_)) {
      found.push({ url, file, pattern, isPage: typeof module.default === "function", hasAction: typeof module.action === "function" });
    }
  }
  return found;
}
