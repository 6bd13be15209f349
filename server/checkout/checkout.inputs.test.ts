import { expect, test } from "vitest";
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
  expect(parsed.input).toMatchObject({ email: "maria.rossi@example.it", province: "MI", wantsInvoice: false, companyName: null });
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
  const ok = parseCheckoutForm({ ...invoice, vatNumber: "IT 01234567890", sdiCode: "m5uxcr1" }, "it");
  expect(ok.ok && ok.input).toMatchObject({ wantsInvoice: true, vatNumber: "01234567890", sdiCode: "M5UXCR1", pec: null });
  const withPec = parseCheckoutForm({ ...invoice, vatNumber: "01234567890", pec: "Bimbi@PEC.it" }, "it");
  expect(withPec.ok && withPec.input).toMatchObject({ sdiCode: null, pec: "bimbi@pec.it" });
  const errors = errorsOf({ ...invoice, companyName: "", vatNumber: "123", sdiCode: "12" });
  expect(errors).toMatchObject({
    companyName: "Scrivi la ragione sociale.",
    vatNumber: "La partita IVA è di 11 cifre, ad esempio 01234567890.",
    sdiCode: "Il codice destinatario SDI è di 7 lettere o cifre, ad esempio M5UXCR1.",
  });
  expect(errorsOf({ ...invoice, vatNumber: "01234567890" }).sdiCode).toBe("Per la fattura scrivi il codice destinatario SDI oppure la PEC.");
  expect(errorsOf({ ...invoice, vatNumber: "01234567890", pec: "not-an-email" }).pec).toBe(
    "Scrivi un indirizzo PEC valido, ad esempio azienda@pec.it.",
  );
  // Without the box ticked the invoice fields are ignored.
  const noInvoice = parseCheckoutForm({ ...valid, vatNumber: "garbage" }, "it");
  expect(noInvoice.ok && noInvoice.input.vatNumber).toBeNull();
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
