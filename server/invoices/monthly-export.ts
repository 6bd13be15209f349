/**
 * A month's documents for the accountant: a CSV summary (one row per invoice or credit note, amounts per
 * VAT rate) and a zip holding every FatturaPA file with that CSV. The zip is written here (deflate from
 * node:zlib, the format's few headers by hand) rather than with a dependency. Pure: no db, env or clock.
 */
import { crc32, deflateRawSync } from "node:zlib";
import { italianDayOf } from "#common/shop-calendar.ts";
import { centsToDecimalText } from "#server/money.ts";
import { fatturaPaFileName } from "./fatturapa";
import type { IssuedInvoice } from "./invoice.service";

/** "2026-11": a calendar month the shop can have invoiced in. */
export function isExportMonth(value: string): boolean {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(value);
  return Boolean(match && Number(match[1]) >= 2000 && Number(match[1]) <= 2999);
}

/** The month a back-office page was asked for (`?mese=2026-11`), the current Italian month when none or a bad one. */
export function askedMonth(url: URL, now: Date): { month: string; invalidMonth: boolean } {
  const asked = url.searchParams.get("mese");
  const valid = asked !== null && isExportMonth(asked);
  return { month: valid ? asked : italianDayOf(now).slice(0, 7), invalidMonth: asked !== null && !valid };
}

/** A CSV field, quoted when it holds a separator, a quote or a line break. */
export const csvField = (value: string) => (/[";\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The buyer's name; one that starts like a formula gets a leading apostrophe, so a spreadsheet shows it as text. */
function buyerName(invoice: IssuedInvoice) {
  const { buyer } = invoice.document;
  const name = buyer.kind === "company" ? buyer.name : `${buyer.firstName} ${buyer.lastName}`;
  return /^[=+\-@\t\r]/.test(name) ? `'${name}` : name;
}

/**
 * Semicolon-separated with decimal points, as Italian spreadsheets open it; credit notes' amounts are
 * negative so that a column adds up to the month's net figure.
 */
export function monthlyCsv(documents: readonly IssuedInvoice[]): string {
  const rates = [...new Set(documents.flatMap((invoice) => invoice.document.vatSummary.map((row) => row.vatRatePercent)))].sort((a, b) => b - a);
  const header = [
    "numero",
    "data",
    "tipo",
    "ordine",
    "cliente",
    "codice_fiscale",
    "partita_iva",
    ...rates.flatMap((rate) => [`imponibile_${rate}`, `iva_${rate}`]),
    "totale",
    "file",
  ];
  const rows = documents.map((invoice) => {
    const sign = invoice.kind === "credit_note" ? -1 : 1;
    const { buyer } = invoice.document;
    const atRate = (rate: number) => invoice.document.vatSummary.find((row) => row.vatRatePercent === rate);
    return [
      invoice.number,
      invoice.issuedOn,
      invoice.kind === "invoice" ? "TD01" : "TD04",
      String(invoice.document.orderNumber),
      buyerName(invoice),
      buyer.kind === "private" ? buyer.fiscalCode : "",
      buyer.kind === "company" ? buyer.vatNumber : "",
      ...rates.flatMap((rate) => {
        const row = atRate(rate);
        return row ? [centsToDecimalText(sign * row.netCents), centsToDecimalText(sign * row.vatCents)] : ["", ""];
      }),
      centsToDecimalText(sign * invoice.totalCents),
      fatturaPaFileName(invoice.document),
    ];
  });
  return [header, ...rows].map((row) => row.map(csvField).join(";")).join("\r\n") + "\r\n";
}

type ZipEntry = { name: string; data: Buffer };

/** A zip archive of the entries (deflated, UTF-8 names, no time zone: the DOS time of `modifiedAt` in UTC). */
export function zipArchive(entries: readonly ZipEntry[], modifiedAt: Date): Buffer {
  const dosTime = (modifiedAt.getUTCHours() << 11) | (modifiedAt.getUTCMinutes() << 5) | Math.floor(modifiedAt.getUTCSeconds() / 2);
  const dosDate = ((modifiedAt.getUTCFullYear() - 1980) << 9) | ((modifiedAt.getUTCMonth() + 1) << 5) | modifiedAt.getUTCDate();
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const compressed = deflateRawSync(entry.data);
    const checksum = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const centralSize = centrals.reduce((size, part) => size + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** The month's zip: every document's FatturaPA file and the CSV summary. */
export function monthlyArchive(month: string, documents: readonly IssuedInvoice[], madeAt: Date): Buffer {
  return zipArchive(
    [
      ...documents.map((invoice) => ({ name: fatturaPaFileName(invoice.document), data: Buffer.from(invoice.xml, "utf8") })),
      { name: `fatture-${month}.csv`, data: Buffer.from(monthlyCsv(documents), "utf8") },
    ],
    madeAt,
  );
}
