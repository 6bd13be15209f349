/**
 * The register of daily takings (registro dei corrispettivi, art. 24 DPR 633/72) of the sales without an
 * invoice: per day and VAT rate, what was cashed (VAT included), its amount before VAT and the VAT, taken
 * out once on the day's total per rate (docs/decisions/0092-vat-rates-of-the-sample-goods.md). Pure.
 */
import { centsToDecimalText, netOfVatCents, type Cents } from "#server/money.ts";
import { billedLinesOfOrder, type OrderFacts } from "./invoice";
import { csvField } from "./monthly-export";

export type TakingsRow = { day: string; vatRatePercent: number; orderCount: number; grossCents: Cents; netCents: Cents; vatCents: Cents };

/** Rows by day, then by rate (highest first); each order's discount is spread over its rates as on an invoice. */
export function takingsRegister(sales: readonly { day: string; facts: OrderFacts }[]): TakingsRow[] {
  const byKey = new Map<string, { day: string; vatRatePercent: number; orders: Set<number>; grossCents: Cents }>();
  sales.forEach((sale, index) => {
    for (const line of billedLinesOfOrder(sale.facts)) {
      const key = `${sale.day} ${line.vatRatePercent}`;
      const row = byKey.get(key) ?? { day: sale.day, vatRatePercent: line.vatRatePercent, orders: new Set(), grossCents: 0 };
      row.grossCents += line.grossCents;
      row.orders.add(index);
      byKey.set(key, row);
    }
  });
  return [...byKey.values()]
    .sort((a, b) => a.day.localeCompare(b.day) || b.vatRatePercent - a.vatRatePercent)
    .map((row) => {
      const netCents = netOfVatCents(row.grossCents, row.vatRatePercent);
      return {
        day: row.day,
        vatRatePercent: row.vatRatePercent,
        orderCount: row.orders.size,
        grossCents: row.grossCents,
        netCents,
        vatCents: row.grossCents - netCents,
      };
    });
}

/** Semicolon-separated with decimal points, as the month's invoice summary (server/invoices/monthly-export.ts). */
export function takingsCsv(rows: readonly TakingsRow[]): string {
  const header = ["giorno", "aliquota_iva", "ordini", "corrispettivi", "imponibile", "iva"];
  const lines = rows.map((row) => [
    row.day,
    String(row.vatRatePercent),
    String(row.orderCount),
    centsToDecimalText(row.grossCents),
    centsToDecimalText(row.netCents),
    centsToDecimalText(row.vatCents),
  ]);
  return [header, ...lines].map((fields) => fields.map(csvField).join(";")).join("\r\n") + "\r\n";
}
