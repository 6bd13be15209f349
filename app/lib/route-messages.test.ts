/**
 * Each page ships only the messages it lists (app/lib/route-messages.ts): these tests read the code a route
 * renders (its module and every app/ or common/ module it imports, type-only imports aside) for message keys written
 * in it ("cart.addToCart", `saved.toast.${list}`) and check that the route's `handle.messages`, with the
 * root's, covers each of them. Keys that arrive as data (a form error from the server) are not written in
 * app/ or common/ code: the route lists their area by hand, and the server-rendered page shows a key it forgot.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import it from "#messages/it.json";
import routes from "#app/routes.ts";
import { pickMessages, type MessagesHandle } from "#common/messages.ts";

/** Importing every route module transforms much of the app once. */
const slow = { timeout: 120_000 };

const appDir = path.resolve(import.meta.dirname, "..");
const commonDir = path.resolve(appDir, "../common");
const namespaces = new Set(Object.keys(it));
const uiMessagesFile = path.join(appDir, "ui/ui-messages.ts");

/** The app/ or common/ file an import names, or null for packages, server code and other files. */
function resolveImport(fromFile: string, specifier: string): string | null {
  const base = specifier.startsWith("#app/")
    ? path.join(appDir, specifier.slice("#app/".length))
    : specifier.startsWith("#common/")
      ? path.join(commonDir, specifier.slice("#common/".length))
      : specifier.startsWith(".")
        ? path.resolve(path.dirname(fromFile), specifier)
        : null;
  if (!base) return null;
  const file = [base, `${base}.ts`, `${base}.tsx`].find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
  // ui-messages.ts holds lists of keys for handles: keys named there are not rendered.
  const isRendered = file && (file.startsWith(`${appDir}${path.sep}`) || file.startsWith(`${commonDir}${path.sep}`));
  // A .server.ts module (a route's HTTP edge) never reaches the browser: its texts are translated on the server.
  return isRendered && !file.endsWith(".test.ts") && !file.endsWith(".server.ts") && file !== uiMessagesFile ? file : null;
}

type FoundKey = { key: string; where: string; dynamic: boolean };

/** Message keys written in a file: string literals, and the fixed start of template literals (`saved.toast.${list}`). */
function keysIn(source: string): Omit<FoundKey, "where">[] {
  const keys: Omit<FoundKey, "where">[] = [];
  for (const [, , text] of source.matchAll(/(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)) {
    const fixed = text!.split("${")[0]!.replace(/\.$/, "");
    const match = /^([A-Za-z][A-Za-z0-9]*)(\.[A-Za-z0-9_-]+)*$/.exec(fixed);
    if (!match || !namespaces.has(match[1]!)) continue;
    // A bare word is a key only when the catalogue has a text of that name ("skipLink"), or it starts a key.
    const isKey = fixed.includes(".") || text!.startsWith(`${fixed}.`) || typeof it[match[1] as keyof typeof it] === "string";
    if (isKey) keys.push({ key: fixed, dynamic: text!.includes("${") });
  }
  return keys;
}

/** Keys written in `file` and in every app/ or common/ module it imports (type-only imports aside). */
function keysRenderedBy(file: string, seen = new Set<string>()): FoundKey[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const source = fs.readFileSync(file, "utf8");
  const found: FoundKey[] = keysIn(source).map((key) => ({ ...key, where: path.relative(appDir, file) }));
  for (const [statement, specifier] of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/g)) {
    if (/^\s*(import|export)\s+type\s/.test(statement)) continue;
    const imported = resolveImport(file, specifier!);
    if (imported) found.push(...keysRenderedBy(imported, seen));
  }
  return found;
}

/**
 * Listed prefixes cover a key written whole when one of them is the key or one of its parents. A key with a
 * variable part (`saved.${list}.remove`) cannot be checked whole: listing any text under its fixed start will do.
 */
function isCovered(prefixes: readonly string[], { key, dynamic }: FoundKey) {
  return prefixes.some((prefix) => key === prefix || key.startsWith(`${prefix}.`) || (dynamic && prefix.startsWith(`${key}.`)));
}

type RouteEntry = { file: string; children?: RouteEntry[] };
type PageModule = { file: string; layouts: string[] };
/** Route modules that render a page (resource routes answer data and render nothing), with the layouts around them. */
function pageModulesOf(entries: readonly RouteEntry[], layouts: string[] = []): PageModule[] {
  return entries.flatMap((entry) => {
    const file = path.join(appDir, entry.file);
    const own = /\nexport default function/.test(fs.readFileSync(file, "utf8")) ? [{ file, layouts }] : [];
    return [...own, ...pageModulesOf(entry.children ?? [], [...layouts, file])];
  });
}
const pageModules = [...new Map(pageModulesOf(routes as RouteEntry[]).map((page) => [page.file, page])).values()];
const rootFile = path.join(appDir, "root.tsx");

async function listedMessages(file: string): Promise<readonly string[] | undefined> {
  const module = (await import(file)) as { handle?: Partial<MessagesHandle> };
  return module.handle?.messages;
}

const missingFrom = (listed: readonly string[], found: FoundKey[]) => [
  ...new Set(found.filter((key) => !isCovered(listed, key)).map(({ key, where }) => `${key} (${where})`)),
];

test("the root lists every message the shell renders (header, footer, menus, error pages)", slow, async () => {
  expect(missingFrom((await listedMessages(rootFile)) ?? [], keysRenderedBy(rootFile))).toEqual([]);
});

test.each(pageModules.map((page) => [path.relative(appDir, page.file), page]))(
  "%s lists every message its page renders",
  slow,
  async (_name, { file, layouts }) => {
    const listed = await listedMessages(file);
    expect(listed, "export const handle = { messages: [...] } satisfies MessagesHandle").toBeDefined();
    // The root's messages and those of the layouts around the page come with their own loaders.
    const around = (await Promise.all([rootFile, ...layouts].map(listedMessages))).flatMap((messages) => messages ?? []);
    expect(missingFrom([...around, ...listed!], keysRenderedBy(file))).toEqual([]);
  },
);

test("every page has a loader: its messages reach the browser in its loader data (server/http/page-messages.ts)", slow, async () => {
  const withoutLoader: string[] = [];
  for (const page of pageModules) {
    const module = (await import(page.file)) as { loader?: unknown };
    if (typeof module.loader !== "function") withoutLoader.push(path.relative(appDir, page.file));
  }
  expect(withoutLoader).toEqual([]);
});

test("error pages of routes use only the root's messages: they show when the loaders under them failed", slow, async () => {
  const shell = (await listedMessages(rootFile)) ?? [];
  const boundaries = pageModules.filter((page) => /\nexport function ErrorBoundary/.test(fs.readFileSync(page.file, "utf8")));
  const boundaryModules = new Set(
    boundaries.flatMap((page) =>
      [...fs.readFileSync(page.file, "utf8").matchAll(/from\s*["']([^"']*error-boundary[^"']*)["']/g)].flatMap(
        ([, specifier]) => resolveImport(page.file, specifier!) ?? [],
      ),
    ),
  );
  expect(boundaryModules.size).toBeGreaterThan(0);
  expect([...boundaryModules].flatMap((file) => missingFrom(shell, keysRenderedBy(file)))).toEqual([]);
});

test("every listed prefix names messages that exist", slow, async () => {
  const unknown: string[] = [];
  for (const file of [rootFile, ...pageModules.map((page) => page.file)]) {
    for (const prefix of (await listedMessages(file)) ?? []) {
      if (Object.keys(pickMessages(it, [prefix])).length === 0) unknown.push(`${prefix} (${path.relative(appDir, file)})`);
    }
  }
  expect(unknown).toEqual([]);
});
