import { expect, test } from "vitest";
import { parseCsv, toCsv } from "./csv";

test("quoted fields keep separators, quotes and line breaks; lines are the file's lines", () => {
  const table = parseCsv('a,b,c\r\n1,"due, tre","quattro ""4"""\n"multi\nriga",x,y\n\n5,6,7');
  expect(table.header).toEqual(["a", "b", "c"]);
  expect(table.rows).toEqual([
    { line: 2, cells: ["1", "due, tre", 'quattro "4"'] },
    { line: 3, cells: ["multi\nriga", "x", "y"] },
    { line: 6, cells: ["5", "6", "7"] },
  ]);
});

test("semicolons (Italian Excel) and a byte-order mark are understood", () => {
  const table = parseCsv("\uFEFFsku;prezzo\nA1;12,50\n");
  expect(table.header).toEqual(["sku", "prezzo"]);
  expect(table.rows[0]!.cells).toEqual(["A1", "12,50"]);
});

test("writing then reading gives the same cells; formulas are defused", () => {
  const rows = [
    ["a,b", 'c"d', "e\nf"],
    ["=SUM(A1)", "-5", "12,50"],
  ];
  const parsed = parseCsv(toCsv(["x", "y", "z"], rows));
  expect(parsed.rows.map((row) => row.cells)).toEqual([
    ["a,b", 'c"d', "e\nf"],
    ["'=SUM(A1)", "-5", "12,50"],
  ]);
});

test("stops reading after the limit", () => {
  const text = "a\n" + Array.from({ length: 1000 }, (_, i) => String(i)).join("\n");
  const table = parseCsv(text, 10);
  expect(table.truncated).toBe(true);
  expect(table.rows.length).toBeLessThan(20);
});
