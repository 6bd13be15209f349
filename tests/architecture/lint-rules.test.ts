/**
 * The architecture rules of eslint.config.js catch what they are meant to: proven once each on a snippet
 * linted as if it sat at a given path. Only the syntax rules run here (type information would load the
 * whole project for a few lines, and these rules do not need it).
 */
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { expect, test } from "vitest";

const eslint = new ESLint({ overrideConfig: [tseslint.configs.disableTypeChecked] });

/** The rule ids of the errors the shop's config reports on `code` at `filePath`. */
async function errorsOf(filePath: string, code: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((message) => message.severity === 2).map((message) => message.ruleId);
}

test("server/ importing app/ is an error, through the alias or a relative path", { timeout: 60_000 }, async () => {
  expect(await errorsOf("server/cart/new-rule.ts", 'import { formatMoney } from "#app/lib/format.ts";\nexport const f = formatMoney;\n')).toEqual([
    "no-restricted-imports",
  ]);
  expect(
    await errorsOf("server/cart/new-rule.ts", 'import { formatMoney } from "../../app/lib/format.ts";\nexport const f = formatMoney;\n'),
  ).toEqual(["no-restricted-imports"]);
  expect(await errorsOf("server/cart/new-rule.ts", 'export const f = () => import("#app/lib/format.ts");\n')).toEqual(["no-restricted-syntax"]);
  // The same import is where it belongs in app/.
  expect(await errorsOf("app/lib/new-helper.ts", 'import { formatMoney } from "#app/lib/format.ts";\nexport const f = formatMoney;\n')).toEqual([]);
});

test("inserting an order outside its owner module is an error; in the owner it is not", { timeout: 60_000 }, async () => {
  const insertOrder =
    "declare const db: { insert(table: unknown): unknown };\ndeclare const orders: unknown;\nexport const write = () => db.insert(orders);\n";
  expect(await errorsOf("server/cart/new-rule.ts", insertOrder)).toEqual(["no-restricted-syntax"]);
  expect(await errorsOf("server/orders/order-creation.ts", insertOrder)).toEqual([]);
  // The order owner does not write stock: that is the stock ledger's.
  const takeStock =
    "declare const tx: { insert(table: unknown): unknown };\ndeclare const stockMovements: unknown;\nexport const write = () => tx.insert(stockMovements);\n";
  expect(await errorsOf("server/orders/order-creation.ts", takeStock)).toEqual(["no-restricted-syntax"]);
  expect(await errorsOf("server/stock/stock-ledger.ts", takeStock)).toEqual([]);
});
