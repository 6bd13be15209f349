/**
 * Dependencies point one way: app/ -> server/ -> server/db/, with common/ (browser-safe rules both sides
 * use) beside them, importing neither (docs/decisions/0048-import-direction.md). Only server/http/ speaks
 * React Router; a domain (server/<domain>/) takes plain arguments. This test reads every source of server/
 * and common/ and fails on an import against the direction, whatever its form.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** package.json "imports": "#app/*" -> "./app/*" becomes "#app/" -> "app/". */
const packageImports = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { imports: Record<string, string> }).imports;
const aliases = Object.fromEntries(
  Object.entries(packageImports).map(([alias, target]) => [alias.replace(/\*$/, ""), target.replace(/^\.\//, "").replace(/\*$/, "")]),
);

/** Every module a source names: imports of any kind (type-only, side-effect, dynamic, `typeof import()`), re-exports, vi.mock. */
function importedSpecifiers(source: string): string[] {
  const named = ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
  const mocked = [...source.matchAll(/\bvi\.(?:mock|doMock|importActual)\(\s*["'`]([^"'`]+)["'`]/g)].map((match) => match[1]!);
  return [...named, ...mocked];
}

/** What a specifier of `file` names: a project path ("app/lib/x.ts") or a package ("react-router"). */
function targetOf(file: string, specifier: string): { path: string } | { package: string } {
  const alias = Object.keys(aliases).find((prefix) => specifier.startsWith(prefix));
  if (alias) return { path: aliases[alias] + specifier.slice(alias.length) };
  if (specifier.startsWith(".")) return { path: path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)) };
  if (specifier.startsWith("/")) return { path: specifier.slice(1) };
  const [first = "", second = ""] = specifier.split("/");
  return { package: first.startsWith("@") ? `${first}/${second}` : first };
}

const isUnder = (target: { path: string } | { package: string }, folder: string) => "path" in target && target.path.startsWith(folder);
const isPackage = (target: { path: string } | { package: string }, names: readonly string[]) => "package" in target && names.includes(target.package);

const isReactRouter = (target: { path: string } | { package: string }) =>
  "package" in target && (target.package === "react-router" || target.package.startsWith("@react-router/"));
const react = ["react", "react-dom", "react-i18next"];

/** The rules a file at `file` (project-relative) with this source breaks, one line each. */
function directionViolations(file: string, source: string): string[] {
  const domain = /^server\/([^/]+)\//.exec(file)?.[1];
  const found: string[] = [];
  for (const specifier of importedSpecifiers(source)) {
    const target = targetOf(file, specifier);
    const broken: string[] = [];
    if (file.startsWith("server/") && isUnder(target, "app/")) broken.push("server/ imports app/");
    if (file.startsWith("common/")) {
      if (isUnder(target, "app/") || isUnder(target, "server/")) broken.push("common/ imports app/ or server/");
      if (isReactRouter(target)) broken.push("common/ imports react-router");
      if (isPackage(target, react)) broken.push("common/ imports React (a component belongs in app/)");
    }
    if (domain !== undefined && domain !== "http") {
      if (isReactRouter(target)) broken.push("a domain imports react-router (only server/http/ and app/ may)");
      if (isUnder(target, "server/http/context")) broken.push("a domain imports the router context (it takes plain arguments)");
    }
    for (const rule of broken) found.push(`${file}: ${specifier} (${rule})`);
  }
  return found;
}

function sourcesUnder(...folders: string[]): string[] {
  return fs
    .globSync(
      folders.map((folder) => `${folder}/**/*.{ts,tsx,mts,js,mjs}`),
      { cwd: root },
    )
    .sort();
}

test("no file of server/ or common/ imports against the direction", () => {
  const files = sourcesUnder("server", "common");
  expect(files.length).toBeGreaterThan(200);
  const violations = files.flatMap((file) => directionViolations(file, fs.readFileSync(path.join(root, file), "utf8")));
  expect(violations).toEqual([]);
});

test("the scanner catches a deliberate violation in every form, and lets the allowed ones be", () => {
  const importsApp = [
    `import { localeOfPath } from "#app/lib/locale.ts";`,
    `import type { RootData } from "../../app/lib/root-data";`,
    `import {\n  a,\n  b,\n} from "#app/lib/x.ts";`,
    `export { formatMoney } from "#app/lib/format.ts";`,
    `import "#app/app.css";`,
    `const page = await import("#app/routes/cart/cart.tsx");`,
    `type Loader = typeof import("#app/root.tsx").loader;`,
    `vi.mock("#app/lib/i18n.ts");`,
  ];
  for (const source of importsApp) expect(directionViolations("server/cart/cart.service.ts", source), source).toHaveLength(1);
  expect(directionViolations("server/http/request-edge.ts", `import type { EdgeRefusal } from "../../app/lib/edge-refusal";`)).toHaveLength(1);

  expect(directionViolations("server/cart/cart.ts", `// import x from "#app/lib/x.ts"\nconst text = 'import y from "#app/y.ts"';`)).toEqual([]);
  expect(directionViolations("server/cart/cart-answer.ts", `import { data } from "react-router";`)).toHaveLength(1);
  expect(directionViolations("server/mail/delivery.service.ts", `import type { ShopServices } from "#server/http/context.ts";`)).toHaveLength(1);
  expect(
    directionViolations(
      "server/http/shop-app.ts",
      `import { createRequestHandler } from "@react-router/express";\nimport { shopContext } from "./context";`,
    ),
  ).toEqual([]);
  expect(directionViolations("common/format.ts", `import { getSettings } from "#server/settings/settings.service.ts";`)).toHaveLength(1);
  expect(directionViolations("common/format.ts", `import { sumMoney } from "../server/money.ts";`)).toHaveLength(1);
  expect(directionViolations("common/format.ts", `import { useRootData } from "../app/lib/root-data";`)).toHaveLength(1);
  expect(directionViolations("common/seo.ts", `import type { MetaDescriptor } from "react-router";`)).toHaveLength(1);
  expect(directionViolations("common/price.tsx", `import { useMemo } from "react";`)).toHaveLength(1);
  expect(directionViolations("common/format.ts", `import { intlLocale } from "./locale";\nimport i18next from "i18next";`)).toEqual([]);
  expect(
    directionViolations("app/routes/cart/cart.tsx", `import { getCart } from "#server/cart/cart.service.ts";\nimport { data } from "react-router";`),
  ).toEqual([]);
});
