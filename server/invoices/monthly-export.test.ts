import { inflateRawSync } from "node:zlib";
import { expect, test } from "vitest";
import { defaultSettings } from "#server/settings/settings.ts";
import { fatturaPaXml } from "./fatturapa";
import { priceLines, type InvoiceDocument } from "./invoice";
import type { IssuedInvoice } from "./invoice.service";
import { isExportMonth, monthlyArchive, monthlyCsv } from "./monthly-export";

const address = { street: "Via Toledo", houseNumber: "15", postcode: "80134", city: "Napoli", province: "NA" };

function issued(kind: "invoice" | "credit_note", number: string, transmissionCode: string, lines: Parameters<typeof priceLines>[0]): IssuedInvoice {
  const document: InvoiceDocument = {
    kind,
    number,
    issuedOn: "2026-11-26",
    transmissionCode,
    orderNumber: 1042,
    orderDate: "2026-11-20",
    paymentMethod: "card",
    seller: defaultSettings.fiscal,
    buyer: { kind: "private", firstName: "Mario", lastName: 'Rossi; detto "Mariolino"', fiscalCode: "RSSMRA85T10A562S", address },
    ...priceLines(lines),
    corrects: kind === "credit_note" ? { number: "2026/0001", issuedOn: "2026-11-26" } : null,
  };
  return {
    id: number,
    kind,
    number,
    issuedOn: document.issuedOn,
    orderId: "o",
    totalCents: document.totalCents,
    document,
    xml: fatturaPaXml(document),
  };
}

const invoice = issued("invoice", "2026/0001", "FT261", [
  { description: "Passeggino", quantity: 1, grossCents: 24_990, vatRatePercent: 22 },
  { description: "Latte", quantity: 2, grossCents: 3_598, vatRatePercent: 4 },
]);
const creditNote = issued("credit_note", "NC2026/0001", "NC261", [{ description: "Latte", quantity: 1, grossCents: 1_799, vatRatePercent: 4 }]);

test("the CSV has a row per document, amounts per VAT rate, credit notes negative, and quotes what needs it", () => {
  expect(monthlyCsv([invoice, creditNote]).split("\r\n")).toEqual([
    "numero;data;tipo;ordine;cliente;codice_fiscale;partita_iva;imponibile_22;iva_22;imponibile_4;iva_4;totale;file",
    '2026/0001;2026-11-26;TD01;1042;"Mario Rossi; detto ""Mariolino""";RSSMRA85T10A562S;;204.84;45.06;34.60;1.38;285.88;IT07412580636_FT261.xml',
    'NC2026/0001;2026-11-26;TD04;1042;"Mario Rossi; detto ""Mariolino""";RSSMRA85T10A562S;;;;-17.30;-0.69;-17.99;IT07412580636_NC261.xml',
    "",
  ]);
});

test("a customer's name that a spreadsheet would run as a formula is written as text", () => {
  const formula = { ...invoice, document: { ...invoice.document, buyer: { ...invoice.document.buyer, firstName: "=HYPERLINK(1)", lastName: "x" } } };
  expect(monthlyCsv([formula]).split("\r\n")[1]).toContain(";'=HYPERLINK(1) x;");
});

test("the zip holds each document's XML and the CSV, as they are", () => {
  const archive = monthlyArchive("2026-11", [invoice, creditNote], new Date("2026-12-01T09:00:00Z"));
  // Read back through the central directory, as an unzip tool does.
  const end = archive.length - 22;
  expect(archive.readUInt32LE(end)).toBe(0x06054b50);
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const files: Record<string, string> = {};
  for (let index = 0; index < count; index++) {
    const nameLength = archive.readUInt16LE(at + 28);
    const offset = archive.readUInt32LE(at + 42);
    const name = archive.toString("utf8", at + 46, at + 46 + nameLength);
    const size = archive.readUInt32LE(offset + 18);
    const start = offset + 30 + archive.readUInt16LE(offset + 26);
    files[name] = inflateRawSync(archive.subarray(start, start + size)).toString("utf8");
    at += 46 + nameLength;
  }
  expect(Object.keys(files)).toEqual(["IT07412580636_FT261.xml", "IT07412580636_NC261.xml", "fatture-2026-11.csv"]);
  expect(files["IT07412580636_FT261.xml"]).toBe(invoice.xml);
  expect(files["fatture-2026-11.csv"]).toBe(monthlyCsv([invoice, creditNote]));
});

test("only real months are exported", () => {
  expect(isExportMonth("2026-11")).toBe(true);
  expect(isExportMonth("2026-13")).toBe(false);
  expect(isExportMonth("2026-1")).toBe(false);
  expect(isExportMonth("../etc")).toBe(false);
});
