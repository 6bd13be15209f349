import { expect, test } from "vitest";
import { latinText } from "#server/invoices/fatturapa.ts";
import { parseCheckoutForm } from "./checkout.inputs";

const valid = {
  idempotencyKey: "6f1c1f1e-2b5a-4c8e-9a43-0d2f6c1b7e55",
  firstName: "Maria",
  lastName: "D'Angelo",
  email: "Maria.Rossi@Example.it",
  phone: "+39 333 123 4567",
  deliveryMethod: "standard",
  paymentMethod: "card",
  street: "Via Roma",
  houseNumber: "12/B",
  postcode: "20121",
  city: "Milano",
  province: "mi",
  acceptTerms: "on",
};

function errorsOf(fields: Record<string, unknown>, locale: "it" | "en" = "it") {
  const parsed = parseCheckoutForm(fields, locale);
  if (parsed.ok) throw new Error("expected errors");
  return parsed.errors;
}

test("a valid form: e-mail lower-cased, province upper-cased, unknown fields (prices, totals) dropped", () => {
  const parsed = parseCheckoutForm({ ...valid, totalCents: "1", priceCents: "1", shippingCents: "0", paymentFeeCents: "0" }, "it");
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  expect(parsed.input).toMatchObject({ email: "maria.rossi@example.it", province: "MI", invoiceKind: "none", companyName: null });
  expect(parsed.input).not.toHaveProperty("totalCents");
  expect(parsed.input).not.toHaveProperty("priceCents");
});

test("FormData and URLSearchParams parse the same", () => {
  const form = new FormData();
  for (const [name, value] of Object.entries(valid)) form.set(name, value);
  expect(parseCheckoutForm(form, "it").ok).toBe(true);
  expect(parseCheckoutForm(new URLSearchParams(valid), "en").ok).toBe(true);
});

test("every missing field gets its own message in the page's language, all at once", () => {
  const errors = errorsOf({ idempotencyKey: valid.idempotencyKey, deliveryMethod: "standard" });
  expect(errors).toMatchObject({
    firstName: "Scrivi il nome.",
    email: "Scrivi il tuo indirizzo e-mail.",
    phone: "Scrivi un numero di telefono, per essere contattato per la consegna.",
    paymentMethod: "Scegli come pagare.",
    street: "Scrivi la via o la piazza.",
    postcode: "Scrivi il CAP.",
    province: "Scrivi la sigla della provincia.",
    acceptTerms: "Per ordinare devi accettare le condizioni di vendita.",
  });
  expect(errorsOf({ idempotencyKey: valid.idempotencyKey }, "en")).toMatchObject({
    deliveryMethod: "Choose how to receive your order.",
    acceptTerms: "To order you must accept the conditions of sale.",
  });
});

test("postcode of 5 digits, an Italian province, a plausible phone, an e-mail", () => {
  const errors = errorsOf({ ...valid, postcode: "2012", province: "XX", phone: "abc", email: "maria@" });
  expect(errors.postcode).toBe("Il CAP è di 5 cifre, ad esempio 80100.");
  expect(errors.province).toBe("Scrivi la sigla di una provincia italiana, di 2 lettere, ad esempio NA.");
  expect(errors.phone).toBe("Scrivi un numero di telefono valido, ad esempio +39 081 123 4567.");
  expect(errors.email).toBe("Scrivi un indirizzo e-mail valido, ad esempio nome@esempio.it.");
  expect(errorsOf({ ...valid, postcode: "ABCDE" }, "en").postcode).toBeTruthy();
});

test("unknown delivery or payment methods are refused with a clear message", () => {
  const errors = errorsOf({ ...valid, deliveryMethod: "drone", paymentMethod: "bitcoin" });
  expect(errors.deliveryMethod).toBe("Modalità di consegna non valida: scegline una tra quelle proposte.");
  expect(errors.paymentMethod).toBe("Metodo di pagamento non valido: scegline uno tra quelli proposti.");
});

test("cash on delivery with collection, pay in shop with delivery: refused", () => {
  expect(errorsOf({ ...valid, deliveryMethod: "collection", paymentMethod: "cash_on_delivery" }).paymentMethod).toBe(
    "Il pagamento in contrassegno è possibile solo con la consegna a domicilio.",
  );
  expect(errorsOf({ ...valid, deliveryMethod: "local_delivery", paymentMethod: "in_shop" }, "en").paymentMethod).toBe(
    "Paying in the shop is only possible when you collect in the shop.",
  );
});

test("collection needs no address; a saved address replaces the typed one", () => {
  const collection = parseCheckoutForm({ ...valid, deliveryMethod: "collection", paymentMethod: "in_shop", street: "", postcode: "" }, "it");
  expect(collection.ok && collection.input).toMatchObject({ street: null, postcode: null, province: null });
  const saved = parseCheckoutForm({ ...valid, savedAddressId: "42", street: "", postcode: "", city: "" }, "it");
  expect(saved.ok && saved.input).toMatchObject({ savedAddressId: 42, street: null });
  expect(errorsOf({ ...valid, savedAddressId: "x" }).savedAddressId).toBe("Indirizzo non valido: scegline uno tra quelli salvati.");
});

test("invoice data: company, VAT number of 11 digits, SDI code of 7 characters or a PEC", () => {
  const invoice = { ...valid, wantsInvoice: "on", companyName: "Bimbi & Co. S.r.l." };
  const ok = parseCheckoutForm({ ...invoice, vatNumber: "IT 01234567897", sdiCode: "m5uxcr1" }, "it");
  expect(ok.ok && ok.input).toMatchObject({ invoiceKind: "company", vatNumber: "01234567897", sdiCode: "M5UXCR1", pec: null });
  const withPec = parseCheckoutForm({ ...invoice, vatNumber: "01234567897", pec: "Bimbi@PEC.it" }, "it");
  expect(withPec.ok && withPec.input).toMatchObject({ sdiCode: null, pec: "bimbi@pec.it" });
  const errors = errorsOf({ ...invoice, companyName: "", vatNumber: "123", sdiCode: "12" });
  expect(errors).toMatchObject({
    companyName: "Scrivi la ragione sociale.",
    vatNumber: "La partita IVA è di 11 cifre, ad esempio 01234567897.",
    sdiCode: "Il codice destinatario SDI è di 7 lettere o cifre, ad esempio M5UXCR1.",
  });
  expect(errorsOf({ ...invoice, vatNumber: "01234567897" }).sdiCode).toBe("Per la fattura scrivi il codice destinatario SDI oppure la PEC.");
  expect(errorsOf({ ...invoice, vatNumber: "01234567897", pec: "not-an-email" }).pec).toBe(
    "Scrivi un indirizzo PEC valido, ad esempio azienda@pec.it.",
  );
  // Without the box ticked the invoice fields are ignored.
  const noInvoice = parseCheckoutForm({ ...valid, vatNumber: "garbage" }, "it");
  expect(noInvoice.ok && noInvoice.input.vatNumber).toBeNull();
});

test("a company name takes the typographic dashes and quotes the invoice's file writes plainly; markup and bare punctuation are refused", () => {
  const company = { ...valid, invoiceKind: "company", vatNumber: "01234567897", sdiCode: "M5UXCR1" };
  for (const name of ["Bimbi – Felici S.r.l.", "“Nido” di Rossi — s.n.c.", "L‘Angolo dei Bimbi", 'Cartoleria "Ape" & C.']) {
    const parsed = parseCheckoutForm({ ...company, companyName: name }, "it");
    expect(parsed.ok && parsed.input.companyName, name).toBe(name);
    expect(latinText(name, 80)).toMatch(/^[\p{L}0-9' .,&()+/"-]+$/u);
  }
  for (const name of ["<b>Bimbi</b>", "--", "Bimbi; DROP", "Bimbi\\Felici"]) {
    expect(errorsOf({ ...company, companyName: name }).companyName, name).toBe("La ragione sociale contiene caratteri non ammessi.");
  }
  expect(errorsOf({ ...company, companyName: "<b>Bimbi</b>" }, "en").companyName).toBe("The company name contains characters that are not allowed.");
});

test("a company's partita IVA must carry its check digit; invoiceKind company asks the same as the older box", () => {
  const company = { ...valid, invoiceKind: "company", companyName: "Bimbi & Co. S.r.l.", sdiCode: "M5UXCR1" };
  expect(errorsOf({ ...company, vatNumber: "01234567890" }).vatNumber).toBe(
    "La partita IVA non è valida: l'ultima cifra non torna, controlla di averla scritta bene.",
  );
  expect(errorsOf({ ...company, vatNumber: "01234567890" }, "en").vatNumber).toBe(
    "This VAT number is not valid: its last digit does not match, check that it is typed correctly.",
  );
  const ok = parseCheckoutForm({ ...company, vatNumber: "01234567897" }, "it");
  expect(ok.ok && ok.input).toMatchObject({ invoiceKind: "company", companyName: "Bimbi & Co. S.r.l.", fiscalCode: null });
});

test("a private person's invoice needs a codice fiscale with its check character; omocodia letters are accepted", () => {
  const asPrivate = { ...valid, invoiceKind: "private" };
  expect(errorsOf(asPrivate).fiscalCode).toBe("Scrivi il codice fiscale.");
  expect(errorsOf({ ...asPrivate, fiscalCode: "RSSMRA85T10A562T" }).fiscalCode).toBe(
    "Il codice fiscale non è valido: controlla le 16 lettere e cifre (l'ultima è un carattere di controllo).",
  );
  expect(errorsOf({ ...asPrivate, fiscalCode: "RSSMRA85T10A562T" }, "en").fiscalCode).toBe(
    "This codice fiscale is not valid: check its 16 letters and digits (the last one is a check character).",
  );
  const ok = parseCheckoutForm({ ...asPrivate, fiscalCode: " rssmra85t10a562s " }, "it");
  expect(ok.ok && ok.input).toMatchObject({ invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S", companyName: null, vatNumber: null });
  const omocodia = parseCheckoutForm({ ...asPrivate, fiscalCode: "RSSMRA85T10A56NH" }, "it");
  expect(omocodia.ok && omocodia.input.fiscalCode).toBe("RSSMRA85T10A56NH");
  // The company's fields are not asked of a private person, and no invoice ignores the code.
  expect(parseCheckoutForm({ ...asPrivate, fiscalCode: "RSSMRA85T10A562S", vatNumber: "garbage" }, "it").ok).toBe(true);
  const none = parseCheckoutForm({ ...valid, fiscalCode: "garbage" }, "it");
  expect(none.ok && none.input.fiscalCode).toBeNull();
  expect(errorsOf({ ...valid, invoiceKind: "both" }).invoiceKind).toBe("Scegli se vuoi la fattura.");
});

test("an invoice collected in the shop asks for the buyer's address; without an invoice it is not asked", () => {
  const collected = {
    ...valid,
    deliveryMethod: "collection",
    paymentMethod: "in_shop",
    street: "",
    houseNumber: "",
    postcode: "",
    city: "",
    province: "",
  };
  expect(parseCheckoutForm(collected, "it").ok).toBe(true);
  const errors = errorsOf({ ...collected, invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" });
  expect(Object.keys(errors).sort()).toEqual(["city", "houseNumber", "postcode", "province", "street"]);
  const ok = parseCheckoutForm(
    { ...valid, deliveryMethod: "collection", paymentMethod: "in_shop", invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" },
    "it",
  );
  expect(ok.ok && ok.input).toMatchObject({ street: "Via Roma", postcode: "20121", invoiceKind: "private" });
});

test("a gift-list order asks for no invoice: the family's address must not appear on the giver's", () => {
  const parsed = parseCheckoutForm({ ...valid, invoiceKind: "private", fiscalCode: "garbage" }, "it", { giftList: true });
  expect(parsed.ok && parsed.input).toMatchObject({ invoiceKind: "none", fiscalCode: null });
});

test("a missing or forged idempotency key is an invalid request; refused values come back to fill the form", () => {
  const parsed = parseCheckoutForm({ ...valid, idempotencyKey: "1", firstName: "Ma\u0000ria" }, "it");
  expect(parsed.ok).toBe(false);
  if (parsed.ok) return;
  expect(parsed.errors.idempotencyKey).toBe("Richiesta non valida: ricarica la pagina e riprova.");
  expect(parsed.values.firstName).toBe("Maria");
  expect(parsed.values.city).toBe("Milano");
});

test("too long texts name the limit", () => {
  expect(errorsOf({ ...valid, city: "a".repeat(101) }).city).toBe("Il testo è troppo lungo: al massimo 100 caratteri.");
});
