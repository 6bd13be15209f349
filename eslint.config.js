// ESLint: type-aware typescript-eslint, the hooks rules, Drizzle's where-guards, and the two architecture
// rules the folders promise: imports point app -> server -> db, and each of orders and stock has one writer.
import js from "@eslint/js";
import drizzle from "eslint-plugin-drizzle";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

// --- import direction -----------------------------------------------------------------------------------

const appImport = { regex: "^(#app/|(\\.\\./)+app/)", message: "server/ and common/ do not import app/: move what both need to common/." };
const serverImport = { regex: "^(#server/|(\\.\\./)+server/)", message: "common/ does not import server/." };
const reactRouterImport = {
  regex: "^(react-router|@react-router/)",
  message: "Only the HTTP edge (server/http/, app/routes/**/*.server.ts) imports react-router: a domain takes plain arguments.",
};

/** no-restricted-imports does not see `import("...")`: the same patterns, for dynamic imports. */
function dynamicImportSelectors(patterns) {
  return patterns.map(({ regex, message }) => ({ selector: `ImportExpression > Literal.source[value=/${regex.replaceAll("/", "\\/")}/]`, message }));
}

// --- one owner per table --------------------------------------------------------------------------------

const orderCreation = "server/orders/order-creation.ts";
const stockLedger = "server/stock/stock-ledger.ts";
const reviewService = "server/reviews/review.service.ts";
const invoiceService = "server/invoices/invoice.service.ts";
const withdrawalOwner = "server/after-sales/withdrawal.service.ts";
const returnsOwner = "server/after-sales/returns.service.ts";
const refundsOwner = "server/after-sales/refunds.service.ts";

/** `<x>.insert(table)` wherever it sits in a chain (`db.insert(t)`, `tx.insert(t)`, `ctx.db.insert(t)`). */
const insertInto = (table) => `CallExpression[callee.property.name='insert'][arguments.0.name='${table}']`;
/**
 * `.update(productVariants).set(...)` that writes `stock`, or whose values cannot be read here (a variable, a
 * spread). A variant's other columns (SKU, pre-order) belong to the catalogue's admin, not to the stock ledger.
 */
const variantUpdate =
  "CallExpression[callee.property.name='set'][callee.object.callee.property.name='update'][callee.object.arguments.0.name='productVariants']";
/** The same writes spelt as raw SQL inside a template or a string. */
const rawSql = (pattern) => [`TemplateElement[value.raw=/${pattern}/i]`, `Literal[value=/${pattern}/i]`];
/** Any Drizzle insert, update or delete of `table`, and the same in raw SQL on `sqlName`. */
const writesOf = (table, sqlName) => [
  ...["insert", "update", "delete"].map((verb) => `CallExpression[callee.property.name='${verb}'][arguments.0.name='${table}']`),
  ...rawSql(`(insert\\s+into|update|delete\\s+from)\\s+${sqlName}\\b`),
];

const ownerRules = [
  ...[insertInto("orders"), insertInto("orderLines"), ...rawSql("insert\\s+into\\s+(orders|order_lines)\\b")].map((selector) => ({
    owner: orderCreation,
    selector,
    message: `Orders and their lines are created only by ${orderCreation} (createOrder).`,
  })),
  ...[
    insertInto("stockMovements"),
    `${variantUpdate} > ObjectExpression > Property[key.name='stock']`,
    `${variantUpdate} > ObjectExpression > SpreadElement`,
    `${variantUpdate}[arguments.0.type!='ObjectExpression']`,
    ...rawSql("(insert\\s+into\\s+stock_movements|update\\s+product_variants)\\b"),
  ].map((selector) => ({
    owner: stockLedger,
    selector,
    message: `Stock and stock movements are written only by ${stockLedger}.`,
  })),
  ...[
    insertInto("productReviews"),
    "CallExpression[callee.property.name=/^(update|delete)$/][arguments.0.name='productReviews']",
    ...rawSql("(insert\\s+into|update|delete\\s+from)\\s+product_reviews\\b"),
  ].map((selector) => ({
    owner: reviewService,
    selector,
    message: `Customers' reviews are written only by ${reviewService}.`,
  })),
  ...[
    insertInto("invoices"),
    insertInto("invoiceCounters"),
    "CallExpression[callee.property.name=/^(update|delete)$/][arguments.0.name=/^(invoices|invoiceCounters)$/]",
    ...rawSql('(insert\\s+into|update|delete\\s+from)\\s+"?(invoices|invoice_counters)\\b'),
  ].map((selector) => ({
    owner: invoiceService,
    selector,
    message: `Invoices and their numbers are written only by ${invoiceService}.`,
  })),
  ...writesOf("withdrawals", "withdrawals").map((selector) => ({
    owner: withdrawalOwner,
    selector,
    message: `Withdrawal statements are written only by ${withdrawalOwner}, once.`,
  })),
  ...[...writesOf("returns", "returns"), ...writesOf("returnLines", "return_lines")].map((selector) => ({
    owner: returnsOwner,
    selector,
    message: `Returns and their lines are written only by ${returnsOwner}.`,
  })),
  ...writesOf("refunds", "refunds").map((selector) => ({ owner: refundsOwner, selector, message: `Refunds are written only by ${refundsOwner}.` })),
];

/** Who may write what (one owner or a list): the owners, and the exemptions with their reasons. */
const writers = [
  { file: orderCreation, owner: orderCreation },
  { file: stockLedger, owner: stockLedger },
  { file: reviewService, owner: reviewService },
  { file: withdrawalOwner, owner: withdrawalOwner },
  { file: returnsOwner, owner: returnsOwner },
  { file: refundsOwner, owner: refundsOwner },
  // The test that proves the database refuses to change a stored statement tries it in raw SQL.
  { file: "server/after-sales/withdrawal.service.test.ts", owner: withdrawalOwner },
  // The scale benchmark's generator fills PostgreSQL with a million orders in a few statements, as a seed
  // does; one createOrder per order would take hours.
  { file: "bench/lib/scale-catalogue.ts", owner: orderCreation },
  // The load suite sets its hot and plentiful variants' stock in two statements before the load starts,
  // through its own PostgreSQL connection, beside the running shop.
  { file: "load/lib/load-shop.ts", owner: stockLedger },
  // The one-owner scan's own proof feeds it raw writes as text.
  { file: "tests/architecture/one-owner.test.ts", owner: [stockLedger, invoiceService, returnsOwner] },
  { file: invoiceService, owner: invoiceService },
  // Proves that the database itself refuses to change an issued invoice.
  { file: "server/invoices/invoice.service.test.ts", owner: invoiceService },
];

/**
 * The restrictions of one zone of the tree. A later config replaces an earlier one's rule options for the files
 * they share, so each zone lists everything that applies to its files, and each writer inside the zone gets
 * the same minus its own writes.
 */
function zone({ files, ignores = [], importPatterns, writersInside = [] }) {
  const rules = (owner) => ({
    "no-restricted-imports": importPatterns.length > 0 ? ["error", { patterns: importPatterns }] : "off",
    "no-restricted-syntax": [
      "error",
      ...dynamicImportSelectors(importPatterns),
      ...ownerRules.filter((rule) => ![owner].flat().includes(rule.owner)).map(({ selector, message }) => ({ selector, message })),
    ],
  });
  return [{ files, ignores, rules: rules(undefined) }, ...writersInside.map(({ file, owner }) => ({ files: [file], rules: rules(owner) }))];
}

export default defineConfig([
  {
    ignores: ["build/", "data/", ".react-router/", "test-results/", "playwright-report/", "coverage/", "bench/results/", "node_modules/"],
  },
  {
    files: ["**/*.{js,mjs}"],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { drizzle },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // React Router's way to end a loader or action early: throw redirect(...) (a Response) or data(...).
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "react-router", name: "DataWithResponseInit" },
          ],
        },
      ],
      // `const { secret: _secret, ...rest } = row` is how a field is left out; `_x` keeps a parameter a signature needs.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true, argsIgnorePattern: "^_" }],
      // Off: an async function without await is how a Promise-returning interface is met (handlers, test doubles).
      "@typescript-eslint/require-await": "off",
      // Off: the form and search rules strip control characters on purpose, which is exactly what this rule flags.
      "no-control-regex": "off",
      "drizzle/enforce-update-with-where": ["error", { drizzleObjectName: ["db", "tx"] }],
      "drizzle/enforce-delete-with-where": ["error", { drizzleObjectName: ["db", "tx"] }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    files: ["**/*.test.{ts,tsx}", "tests/**", "e2e/**"],
    rules: {
      // Off in tests: Vitest's asymmetric matchers (expect.any, objectContaining) are typed `any`, and so is
      // JSON.parse of a response body that the assertion then checks.
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: ["e2e/**"],
    // Off: Playwright reads a fixture's first parameter as a destructuring pattern, so a fixture with no
    // dependencies must write `async ({}, use) => ...`.
    rules: { "no-empty-pattern": "off" },
  },
  // Later zones replace the rules of earlier ones for their files, so each lists all that applies to it.
  ...zone({ files: ["**/*.{ts,tsx}"], importPatterns: [], writersInside: writers.filter(({ file }) => !file.startsWith("server/")) }),
  ...zone({ files: ["server/**"], importPatterns: [appImport] }),
  ...zone({
    files: ["server/**"],
    ignores: ["server/http/**"],
    importPatterns: [appImport, reactRouterImport],
    writersInside: writers.filter(({ file }) => file.startsWith("server/")),
  }),
  ...zone({ files: ["common/**"], importPatterns: [appImport, serverImport, reactRouterImport] }),
]);
