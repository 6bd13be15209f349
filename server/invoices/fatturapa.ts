/**
 * The FatturaPA file (format FPR12, schema 1.2.2 in ./schema/) of an invoice or credit note document.
 * Amounts come from integer cents (server/money.ts); texts are reduced to the Latin-1 letters the schema
 * allows. Pure: no db, env or clock.
 */
import { centsToDecimalText, unitAmountText } from "#server/money.ts";
import type { InvoiceAddress, InvoiceDocument, PaymentMethod } from "./invoice";
import { escapeXml } from "#server/html.ts";

const namespace = "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2";

/** The SDI's code for "no channel of the recipient's own": the file reaches them through their tax drawer. */
export const noRecipientCode = "0000000";

const modalitaPagamento: Record<PaymentMethod, string> = {
  card: "MP08",
  bank_transfer: "MP05",
  cash_on_delivery: "MP01",
  in_shop: "MP08",
};

/** Typographic punctuation and the plain form the file writes for it. */
const plainFormOf: Readonly<Record<string, string>> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201B": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u2013": "-",
  "\u2014": "-",
  "\u20AC": "EUR",
};
const typographic = new RegExp(`[${Object.keys(plainFormOf).join("")}]`, "g");

/**
 * The punctuation a name may hold on its way to the file: the plain marks it writes as typed and the
 * typographic ones it turns into them (the checkout's company name follows it, decision 0085).
 */
export const namePunctuation = `' .,&()+/"-${Object.keys(plainFormOf).join("")}`;

/** Characters outside Basic Latin and Latin-1 become their nearest plain form, or a space. */
export function latinText(text: string, max: number): string {
  const plain = text
    .replace(typographic, (char) => plainFormOf[char]!)
    .normalize("NFC")
    .replace(/[^\u0020-\u007E\u00A0-\u00FF]/g, (char) => char.normalize("NFD").replace(/[^\u0020-\u007E]/g, "") || " ")
    .replace(/\s+/g, " ")
    .trim();
  return (plain || "-").slice(0, max);
}

type Node = string | false | null | undefined;

/** One element with its children (already XML) or its text; empty optional parts are left out. */
function element(name: string, ...children: Node[]): string {
  const inner = children.filter((child): child is string => typeof child === "string" && child !== "");
  return `<${name}>${inner.join("")}</${name}>`;
}
const leaf = (name: string, value: string | null | undefined) => (value ? `<${name}>${escapeXml(value)}</${name}>` : null);
const rate = (percent: number) => `${percent}.00`;

function sede(address: InvoiceAddress) {
  return element(
    "Sede",
    leaf("Indirizzo", latinText(address.street, 60)),
    address.houseNumber && leaf("NumeroCivico", latinText(address.houseNumber, 8).replace(/[^\u0020-\u007E]/g, "")),
    leaf("CAP", address.postcode),
    leaf("Comune", latinText(address.city, 60)),
    address.province && /^[A-Z]{2}$/.test(address.province) && leaf("Provincia", address.province),
    leaf("Nazione", "IT"),
  );
}

/** The whole file, as the SDI receives it. */
export function fatturaPaXml(document: InvoiceDocument): string {
  const { seller, buyer } = document;
  const recipientCode = buyer.kind === "company" ? (buyer.sdiCode ?? noRecipientCode) : noRecipientCode;
  const header = element(
    "FatturaElettronicaHeader",
    element(
      "DatiTrasmissione",
      element("IdTrasmittente", leaf("IdPaese", "IT"), leaf("IdCodice", seller.fiscalCode)),
      leaf("ProgressivoInvio", document.transmissionCode),
      leaf("FormatoTrasmissione", "FPR12"),
      leaf("CodiceDestinatario", recipientCode),
      buyer.kind === "company" && !buyer.sdiCode && leaf("PECDestinatario", buyer.pec),
    ),
    element(
      "CedentePrestatore",
      element(
        "DatiAnagrafici",
        element("IdFiscaleIVA", leaf("IdPaese", "IT"), leaf("IdCodice", seller.vatNumber)),
        leaf("CodiceFiscale", seller.fiscalCode),
        element("Anagrafica", leaf("Denominazione", latinText(seller.denomination, 80))),
        leaf("RegimeFiscale", seller.regimeFiscale),
      ),
      sede({ street: seller.street, houseNumber: seller.houseNumber, postcode: seller.postcode, city: seller.city, province: seller.province }),
      seller.reaOffice &&
        seller.reaNumber &&
        element("IscrizioneREA", leaf("Ufficio", seller.reaOffice), leaf("NumeroREA", seller.reaNumber), leaf("StatoLiquidazione", "LN")),
    ),
    element(
      "CessionarioCommittente",
      buyer.kind === "company"
        ? element(
            "DatiAnagrafici",
            element("IdFiscaleIVA", leaf("IdPaese", "IT"), leaf("IdCodice", buyer.vatNumber)),
            element("Anagrafica", leaf("Denominazione", latinText(buyer.name, 80))),
          )
        : element(
            "DatiAnagrafici",
            leaf("CodiceFiscale", buyer.fiscalCode),
            element("Anagrafica", leaf("Nome", latinText(buyer.firstName, 60)), leaf("Cognome", latinText(buyer.lastName, 60))),
          ),
      sede(buyer.address),
    ),
  );
  const lines = document.lines.map((line, index) =>
    element(
      "DettaglioLinee",
      leaf("NumeroLinea", String(index + 1)),
      leaf("Descrizione", latinText(line.description, 1000)),
      leaf("Quantita", `${line.quantity}.00`),
      leaf("PrezzoUnitario", unitAmountText(line.netCents, line.quantity)),
      leaf("PrezzoTotale", centsToDecimalText(line.netCents)),
      leaf("AliquotaIVA", rate(line.vatRatePercent)),
    ),
  );
  const summary = document.vatSummary.map((row) =>
    element(
      "DatiRiepilogo",
      leaf("AliquotaIVA", rate(row.vatRatePercent)),
      leaf("ImponibileImporto", centsToDecimalText(row.netCents)),
      leaf("Imposta", centsToDecimalText(row.vatCents)),
      leaf("EsigibilitaIVA", "I"),
    ),
  );
  const body = element(
    "FatturaElettronicaBody",
    element(
      "DatiGenerali",
      element(
        "DatiGeneraliDocumento",
        leaf("TipoDocumento", document.kind === "invoice" ? "TD01" : "TD04"),
        leaf("Divisa", "EUR"),
        leaf("Data", document.issuedOn),
        leaf("Numero", document.number),
        leaf("ImportoTotaleDocumento", centsToDecimalText(document.totalCents)),
      ),
      element("DatiOrdineAcquisto", leaf("IdDocumento", String(document.orderNumber)), leaf("Data", document.orderDate)),
      document.corrects && element("DatiFattureCollegate", leaf("IdDocumento", document.corrects.number), leaf("Data", document.corrects.issuedOn)),
    ),
    element("DatiBeniServizi", ...lines, ...summary),
    element(
      "DatiPagamento",
      leaf("CondizioniPagamento", "TP02"),
      element(
        "DettaglioPagamento",
        leaf("ModalitaPagamento", modalitaPagamento[document.paymentMethod]),
        leaf("ImportoPagamento", centsToDecimalText(document.totalCents)),
      ),
    ),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<p:FatturaElettronica versione="FPR12" xmlns:p="${namespace}" xmlns:ds="http://www.w3.org/2000/09/xmldsig#">${header}${body}</p:FatturaElettronica>\n`;
}

/** The file name the SDI expects: country, the sender's code, "_" and a progressive of up to 5 characters. */
export function fatturaPaFileName(document: InvoiceDocument): string {
  const progressive = document.transmissionCode.replace(/[^A-Za-z0-9]/g, "").slice(-5);
  return `IT${document.seller.fiscalCode}_${progressive}.xml`;
}
