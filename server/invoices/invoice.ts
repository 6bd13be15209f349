/**
 * An invoice or credit note as a document: the seller, the buyer, the lines with their amounts before VAT
 * and the VAT summary per rate. Prices in the shop include VAT; each rate's amount before VAT is taken out
 * once (server/money.ts) and split over its lines so that lines, summary and total always agree with what
 * the customer paid. The printable page and the FatturaPA XML are both made from this. Pure: no db, env or clock.
 */
import { netOfVatCents, splitInProportion, sumCents, type Cents } from "#server/money.ts";
import type { FiscalSettings } from "#server/settings/settings.ts";

/** Delivery costs and the cash-on-delivery fee follow the standard rate. */
export const feeVatRatePercent = 22;

export type InvoiceAddress = {
  street: string;
  houseNumber: string | null;
  postcode: string;
  city: string;
  province: string | null;
};

export type InvoiceBuyer =
  | { kind: "private"; firstName: string; lastName: string; fiscalCode: string; address: InvoiceAddress }
  | { kind: "company"; name: string; vatNumber: string; sdiCode: string | null; pec: string | null; address: InvoiceAddress };

/** A line as billed: its VAT-included amount (negative for a discount) at its VAT rate. */
export type BilledLine = { description: string; quantity: number; grossCents: Cents; vatRatePercent: number };

export type InvoiceLine = BilledLine & { netCents: Cents };
export type VatSummary = { vatRatePercent: number; netCents: Cents; vatCents: Cents; grossCents: Cents };

export type PaymentMethod = "card" | "cash_on_delivery" | "bank_transfer" | "in_shop";

export type InvoiceDocument = {
  kind: "invoice" | "credit_note";
  number: string;
  /** "YYYY-MM-DD", the issuing day in Italy. */
  issuedOn: string;
  /** A short code for the file's ProgressivoInvio (1-10 Latin letters and digits). */
  transmissionCode: string;
  orderNumber: number;
  orderDate: string;
  paymentMethod: PaymentMethod;
  seller: FiscalSettings;
  buyer: InvoiceBuyer;
  lines: InvoiceLine[];
  vatSummary: VatSummary[];
  totalCents: Cents;
  /** The invoice a credit note corrects. */
  corrects: { number: string; issuedOn: string } | null;
};

/** Lines with their amounts before VAT, and the summary per rate (highest rate first). */
export function priceLines(billed: readonly BilledLine[]): { lines: InvoiceLine[]; vatSummary: VatSummary[]; totalCents: Cents } {
  const rates = [...new Set(billed.map((line) => line.vatRatePercent))].sort((a, b) => b - a);
  const netOf = new Map<number, Cents>();
  const vatSummary = rates.map((vatRatePercent) => {
    const atRate = billed.map((line, index) => ({ line, index })).filter(({ line }) => line.vatRatePercent === vatRatePercent);
    const grossCents = sumCents(atRate.map(({ line }) => line.grossCents));
    const netCents = netOfVatCents(grossCents, vatRatePercent);
    const parts =
      grossCents === 0
        ? atRate.map(({ line }) => netOfVatCents(line.grossCents, vatRatePercent))
        : splitInProportion(
            netCents,
            atRate.map(({ line }) => line.grossCents),
          );
    // Lines of a rate that nets to zero: each taken out on its own, the last one making the sum exact.
    if (grossCents === 0 && parts.length > 0) parts[parts.length - 1]! += netCents - sumCents(parts);
    atRate.forEach(({ index }, position) => netOf.set(index, parts[position]!));
    return { vatRatePercent, netCents, vatCents: grossCents - netCents, grossCents };
  });
  return {
    lines: billed.map((line, index) => ({ ...line, netCents: netOf.get(index)! })),
    vatSummary,
    totalCents: sumCents(billed.map((line) => line.grossCents)),
  };
}

/** An order line as the order keeps it (its snapshot). */
export type OrderLineFacts = {
  id: string;
  name: string;
  colour: string | null;
  size: string | null;
  quantity: number;
  lineTotalCents: Cents;
  vatRatePercent: number;
  /** The bundle the line is a part of (docs/decisions/0100-bundles.md): its invoice line names it. */
  bundleName?: string | null;
};

export type OrderFacts = {
  lines: readonly OrderLineFacts[];
  shippingCents: Cents;
  paymentFeeCents: Cents;
  paymentMethod: PaymentMethod;
  totalCents: Cents;
};

const describeLine = (line: OrderLineFacts) =>
  [line.name, line.colour, line.size].filter(Boolean).join(" - ") + (line.bundleName ? ` (parte di ${line.bundleName})` : "");

/**
 * What an order bills: its lines, the delivery and the payment fee, and a discount code's saving spread
 * over the goods' VAT rates in proportion to what each rate sold (so each rate's VAT is on what was paid).
 */
export function billedLinesOfOrder(order: OrderFacts): BilledLine[] {
  const goods: BilledLine[] = order.lines.map((line) => ({
    description: describeLine(line),
    quantity: line.quantity,
    grossCents: line.lineTotalCents,
    vatRatePercent: line.vatRatePercent,
  }));
  const billed = [...goods];
  if (order.shippingCents > 0)
    billed.push({ description: "Spese di spedizione", quantity: 1, grossCents: order.shippingCents, vatRatePercent: feeVatRatePercent });
  if (order.paymentFeeCents > 0)
    billed.push({ description: "Commissione contrassegno", quantity: 1, grossCents: order.paymentFeeCents, vatRatePercent: feeVatRatePercent });
  const discountCents = sumCents(billed.map((line) => line.grossCents)) - order.totalCents;
  if (discountCents > 0) {
    const rates = [...new Set(goods.map((line) => line.vatRatePercent))].sort((a, b) => b - a);
    const grossPerRate = rates.map((rate) => sumCents(goods.filter((line) => line.vatRatePercent === rate).map((line) => line.grossCents)));
    splitInProportion(discountCents, grossPerRate).forEach((share, index) => {
      if (share > 0) billed.push({ description: "Sconto", quantity: 1, grossCents: -share, vatRatePercent: rates[index]! });
    });
  }
  return billed;
}

/** A refund to credit: the refunded quantity and amount (VAT included) of order lines, by their id, and the delivery's. */
export type RefundedAmounts = {
  lines: readonly { orderLineId: string; quantity: number; amountCents: Cents }[];
  deliveryCents: Cents;
};

export type CreditNoteRefusal = "nothing-refunded" | "unknown-line" | "more-than-invoiced";

/**
 * The lines of a credit note for a refund of an invoiced order: each refunded line at the rate it was
 * sold at, never more than the invoice billed for that line (nor for the delivery).
 */
export function billedLinesOfRefund(
  invoiced: InvoiceDocument,
  order: OrderFacts,
  refund: RefundedAmounts,
): { ok: true; lines: BilledLine[] } | { ok: false; error: CreditNoteRefusal } {
  const lines: BilledLine[] = [];
  for (const refunded of refund.lines) {
    const line = order.lines.find((candidate) => candidate.id === refunded.orderLineId);
    if (!line) return { ok: false, error: "unknown-line" };
    if (refunded.amountCents <= 0 || refunded.quantity <= 0) return { ok: false, error: "nothing-refunded" };
    if (refunded.amountCents > line.lineTotalCents || refunded.quantity > line.quantity) return { ok: false, error: "more-than-invoiced" };
    lines.push({
      description: describeLine(line),
      quantity: refunded.quantity,
      grossCents: refunded.amountCents,
      vatRatePercent: line.vatRatePercent,
    });
  }
  if (refund.deliveryCents > 0) {
    if (refund.deliveryCents > order.shippingCents) return { ok: false, error: "more-than-invoiced" };
    lines.push({ description: "Spese di spedizione", quantity: 1, grossCents: refund.deliveryCents, vatRatePercent: feeVatRatePercent });
  }
  if (lines.length === 0) return { ok: false, error: "nothing-refunded" };
  if (sumCents(lines.map((line) => line.grossCents)) > invoiced.totalCents) return { ok: false, error: "more-than-invoiced" };
  return { ok: true, lines };
}

/** The buyer as the order names them, or null when the order asked for no invoice (or lacks what one needs). */
export function buyerOfOrder(order: {
  invoiceKind: "none" | "private" | "company";
  firstName: string;
  lastName: string;
  fiscalCode: string | null;
  companyName: string | null;
  vatNumber: string | null;
  sdiCode: string | null;
  pec: string | null;
  street: string | null;
  houseNumber: string | null;
  postcode: string | null;
  city: string | null;
  province: string | null;
}): InvoiceBuyer | null {
  if (!order.street || !order.postcode || !order.city) return null;
  const address = { street: order.street, houseNumber: order.houseNumber, postcode: order.postcode, city: order.city, province: order.province };
  if (order.invoiceKind === "private" && order.fiscalCode)
    return { kind: "private", firstName: order.firstName, lastName: order.lastName, fiscalCode: order.fiscalCode, address };
  if (order.invoiceKind === "company" && order.companyName && order.vatNumber)
    return { kind: "company", name: order.companyName, vatNumber: order.vatNumber, sdiCode: order.sdiCode, pec: order.pec, address };
  return null;
}

/** "2026/0001" for invoices, "NC2026/0001" for credit notes: the series, the year and the number. */
export function invoiceNumberText(series: string, year: number, sequence: number): string {
  return `${series === "FT" ? "" : series}${year}/${String(sequence).padStart(4, "0")}`;
}

/** The most documents of one series a year whose file names stay apart (three base-36 characters). */
export const maxSequenceOfYear = 36 ** 3 - 1;

/**
 * The file's ProgressivoInvio, whole in its name's 5 characters (decision 0085): the year (one base-36
 * character, 2026 = "Q"), the series' letter ("F" invoices, "N" credit notes) and the number in base 36,
 * so an invoice and a credit note never share a file name. Earlier files keep the names they were given.
 */
export function transmissionCodeOf(series: string, year: number, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence > maxSequenceOfYear)
    throw new RangeError(`Document ${sequence} of ${series} ${year} has no file name of its own`);
  const yearCharacter = ((((year - 2000) % 36) + 36) % 36).toString(36);
  return `${yearCharacter}${series.charAt(0)}${sequence.toString(36).padStart(3, "0")}`.toUpperCase();
}
