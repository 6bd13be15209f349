import { readFileSync } from "node:fs";
import { validateXML } from "xmllint-wasm";
import { expect, test } from "vitest";
import { defaultSettings } from "#server/settings/settings.ts";
import { fatturaPaFileName, fatturaPaXml, latinText } from "./fatturapa";
import {
  billedLinesOfOrder,
  maxSequenceOfYear,
  priceLines,
  transmissionCodeOf,
  type InvoiceBuyer,
  type InvoiceDocument,
  type OrderFacts,
} from "./invoice";

const schemaFile = (name: string) => ({ fileName: name, contents: readFileSync(new URL(`./schema/${name}`, import.meta.url)) });
const mainSchema = schemaFile("Schema_del_file_xml_FatturaPA_v1.2.2.xsd");
const signatureSchema = schemaFile("xmldsig-core-schema.xsd");

async function validate(xml: string) {
  const result = await validateXML({ xml: { fileName: "fattura.xml", contents: xml }, schema: mainSchema, preload: [signatureSchema] });
  return { valid: result.valid, errors: result.errors.map((error) => error.message) };
}

const address = { street: "Via Toledo", houseNumber: "15/B", postcode: "80134", city: "Napoli", province: "NA" };
const privateBuyer: InvoiceBuyer = { kind: "private", firstName: "Mario", lastName: "Rossi", fiscalCode: "RSSMRA85T10A562S", address };
const companyBuyer: InvoiceBuyer = {
  kind: "company",
  name: "Nidi & Culle S.r.l. – Napoli",
  vatNumber: "12345678903",
  sdiCode: "M5UXCR1",
  pec: null,
  address,
};

/** A stroller at 22% (two of them), baby formula at 4%, delivery and the cash-on-delivery fee. */
const order: OrderFacts = {
  lines: [
    { id: "line-1", name: "Passeggino Trio “Epsilon”", colour: "Nero", size: null, quantity: 2, lineTotalCents: 49_980, vatRatePercent: 22 },
    { id: "line-2", name: "Latte in polvere 1", colour: null, size: "800 g", quantity: 3, lineTotalCents: 5_397, vatRatePercent: 4 },
  ],
  shippingCents: 690,
  paymentFeeCents: 300,
  paymentMethod: "cash_on_delivery",
  totalCents: 56_367,
};

function documentOf(buyer: InvoiceBuyer, facts: OrderFacts = order): InvoiceDocument {
  return {
    kind: "invoice",
    number: "2026/0001",
    issuedOn: "2026-11-26",
    transmissionCode: "FT261",
    orderNumber: 1042,
    orderDate: "2026-11-20",
    paymentMethod: facts.paymentMethod,
    seller: defaultSettings.fiscal,
    buyer,
    ...priceLines(billedLinesOfOrder(facts)),
    corrects: null,
  };
}

test("an order with goods at 22% and 4% bills each line, the delivery and the fee, and sums to what was paid", () => {
  const document = documentOf(privateBuyer);
  expect(document.lines.map((line) => [line.description, line.grossCents, line.netCents, line.vatRatePercent])).toEqual([
    ["Passeggino Trio “Epsilon” - Nero", 49_980, 40_967, 22],
    ["Latte in polvere 1 - 800 g", 5_397, 5_189, 4],
    ["Spese di spedizione", 690, 566, 22],
    ["Commissione contrassegno", 300, 246, 22],
  ]);
  // 22%: 50,970 paid -> 41,779 before VAT (41,778.69 rounded once), 9,191 VAT; 4%: 5,397 -> 5,189 (5,189.42) and 208.
  expect(document.vatSummary).toEqual([
    { vatRatePercent: 22, netCents: 41_779, vatCents: 9_191, grossCents: 50_970 },
    { vatRatePercent: 4, netCents: 5_189, vatCents: 208, grossCents: 5_397 },
  ]);
  expect(document.totalCents).toBe(56_367);
});

test("a discount code's saving is billed as a discount at each rate, in proportion to the goods each rate sold", () => {
  const document = documentOf(privateBuyer, { ...order, totalCents: order.totalCents - 5_000 });
  const discounts = document.lines.filter((line) => line.description === "Sconto");
  expect(discounts.map((line) => [line.grossCents, line.vatRatePercent])).toEqual([
    [-4_513, 22],
    [-487, 4],
  ]);
  expect(document.totalCents).toBe(51_367);
  for (const row of document.vatSummary) {
    const lines = document.lines.filter((line) => line.vatRatePercent === row.vatRatePercent);
    expect(lines.reduce((sum, line) => sum + line.netCents, 0)).toBe(row.netCents);
    // The VAT is the rate of the amount before it, within the cent the one rounding allows.
    expect(Math.abs(row.vatCents - (row.netCents * row.vatRatePercent) / 100)).toBeLessThanOrEqual(1);
  }
});

test("a private buyer's FatturaPA file validates against the official schema, with the SDI's no-channel code and the codice fiscale", async () => {
  const xml = fatturaPaXml(documentOf(privateBuyer));
  expect(await validate(xml)).toEqual({ valid: true, errors: [] });
  expect(xml).toContain("<FormatoTrasmissione>FPR12</FormatoTrasmissione><CodiceDestinatario>0000000</CodiceDestinatario>");
  expect(xml).toContain(
    "<CessionarioCommittente><DatiAnagrafici><CodiceFiscale>RSSMRA85T10A562S</CodiceFiscale><Anagrafica><Nome>Mario</Nome><Cognome>Rossi</Cognome></Anagrafica>",
  );
  expect(xml).toContain("<IdFiscaleIVA><IdPaese>IT</IdPaese><IdCodice>07412580636</IdCodice></IdFiscaleIVA>");
  expect(xml).toContain("<RegimeFiscale>RF01</RegimeFiscale>");
  expect(xml).toContain(
    "<DettaglioLinee><NumeroLinea>1</NumeroLinea><Descrizione>Passeggino Trio &quot;Epsilon&quot; - Nero</Descrizione><Quantita>2.00</Quantita><PrezzoUnitario>204.835</PrezzoUnitario><PrezzoTotale>409.67</PrezzoTotale><AliquotaIVA>22.00</AliquotaIVA></DettaglioLinee>",
  );
  expect(xml).toContain(
    "<DatiRiepilogo><AliquotaIVA>22.00</AliquotaIVA><ImponibileImporto>417.79</ImponibileImporto><Imposta>91.91</Imposta><EsigibilitaIVA>I</EsigibilitaIVA></DatiRiepilogo>",
  );
  expect(xml).toContain(
    "<DatiRiepilogo><AliquotaIVA>4.00</AliquotaIVA><ImponibileImporto>51.89</ImponibileImporto><Imposta>2.08</Imposta><EsigibilitaIVA>I</EsigibilitaIVA></DatiRiepilogo>",
  );
  expect(xml).toContain("<ImportoTotaleDocumento>563.67</ImportoTotaleDocumento>");
  expect(xml).toContain("<ModalitaPagamento>MP01</ModalitaPagamento><ImportoPagamento>563.67</ImportoPagamento>");
});

test("lines billed at their share of a discount code's saving (cents that do not divide by the units) still validate", async () => {
  // 10% off 49,980 + 5,397 = 5,538 shared 4,998 / 540: the lines carry the paid amounts, no "Sconto" line.
  const discounted: OrderFacts = {
    ...order,
    lines: [
      { ...order.lines[0]!, lineTotalCents: 44_982 },
      { ...order.lines[1]!, lineTotalCents: 4_857 },
    ],
    totalCents: order.totalCents - 5_538,
  };
  const document = documentOf(privateBuyer, discounted);
  expect(document.lines.some((line) => line.description === "Sconto")).toBe(false);
  expect(document.totalCents).toBe(discounted.totalCents);
  const xml = fatturaPaXml(document);
  expect(await validate(xml)).toEqual({ valid: true, errors: [] });
  // 4,857 cents / 3 units before VAT at 4%: a unit price with more than two decimals.
  expect(xml).toContain("<Quantita>3.00</Quantita><PrezzoUnitario>15.56666667</PrezzoUnitario><PrezzoTotale>46.70</PrezzoTotale>");
});

test("a company's file names its partita IVA and SDI code, or its PEC when it has no code, and validates", async () => {
  const withCode = fatturaPaXml(documentOf(companyBuyer));
  expect(await validate(withCode)).toEqual({ valid: true, errors: [] });
  expect(withCode).toContain("<CodiceDestinatario>M5UXCR1</CodiceDestinatario>");
  expect(withCode).toContain("<Denominazione>Nidi &amp; Culle S.r.l. - Napoli</Denominazione>");
  expect(withCode).not.toContain("PECDestinatario");

  const withPec = fatturaPaXml(documentOf({ ...companyBuyer, sdiCode: null, pec: "amministrazione@pec.nidiculle.it" }));
  expect(await validate(withPec)).toEqual({ valid: true, errors: [] });
  expect(withPec).toContain("<CodiceDestinatario>0000000</CodiceDestinatario><PECDestinatario>amministrazione@pec.nidiculle.it</PECDestinatario>");
});

test("a credit note (TD04) names the invoice it corrects and validates", async () => {
  const invoice = documentOf(privateBuyer);
  const note: InvoiceDocument = {
    ...invoice,
    kind: "credit_note",
    number: "NC2026/0001",
    transmissionCode: "NC261",
    ...priceLines([{ description: "Latte in polvere 1 - 800 g", quantity: 1, grossCents: 1_799, vatRatePercent: 4 }]),
    corrects: { number: invoice.number, issuedOn: invoice.issuedOn },
  };
  const xml = fatturaPaXml(note);
  expect(await validate(xml)).toEqual({ valid: true, errors: [] });
  expect(xml).toContain("<TipoDocumento>TD04</TipoDocumento>");
  expect(xml).toContain("<DatiFattureCollegate><IdDocumento>2026/0001</IdDocumento><Data>2026-11-26</Data></DatiFattureCollegate>");
  expect(xml).toContain("<ImportoTotaleDocumento>17.99</ImportoTotaleDocumento>");
});

test("the schema check itself refuses a file the SDI would refuse", async () => {
  const broken = fatturaPaXml(documentOf({ ...privateBuyer, address: { ...address, postcode: "8013" } }));
  const result = await validate(broken);
  expect(result.valid).toBe(false);
  expect(result.errors.join(" ")).toContain("CAP");
});

test("texts keep Latin-1 letters and lose what the schema does not allow", () => {
  expect(latinText("Città – “Bimbi” € 5 🍼", 80)).toBe('Città - "Bimbi" EUR 5');
  expect(latinText("Šiauliai", 80)).toBe("Siauliai");
  expect(fatturaPaFileName(documentOf(privateBuyer))).toBe("IT07412580636_FT261.xml");
});

test("the progressive of a file's name is its whole transmission code: the year, the series' letter and the number", () => {
  const nameOf = (series: string, sequence: number) =>
    fatturaPaFileName({ ...documentOf(privateBuyer), transmissionCode: transmissionCodeOf(series, 2026, sequence) });
  expect(nameOf("FT", 1)).toBe("IT07412580636_QF001.xml");
  expect(nameOf("NC", 1)).toBe("IT07412580636_QN001.xml");
  // 1,296 is "100" in base 36: the first number whose name, cut from a longer code, lost the series.
  expect([nameOf("FT", 1295), nameOf("FT", 1296), nameOf("NC", 1296)]).toEqual([
    "IT07412580636_QF0ZZ.xml",
    "IT07412580636_QF100.xml",
    "IT07412580636_QN100.xml",
  ]);
  expect(nameOf("FT", maxSequenceOfYear)).toBe("IT07412580636_QFZZZ.xml");
  expect(() => transmissionCodeOf("FT", 2026, maxSequenceOfYear + 1)).toThrow(RangeError);
  expect(transmissionCodeOf("FT", 2027, 1)).toBe("RF001");
});
