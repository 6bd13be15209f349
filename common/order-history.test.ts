import { expect, test } from "vitest";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";
import { createI18next } from "./i18n";
import { customerHistoryNoteText, isStaffOnlyHistoryNote, paymentMismatchNote, readHistoryNote, staffHistoryNoteText } from "./order-history";

const it = createI18next("it", messagesIt).t;
const en = createI18next("en", messagesEn).t;

test("the staff read every note the shop writes in words, never as a code", () => {
  const notes: [string, string][] = [
    ["order-placed", "Ordine ricevuto."],
    ["paid:stripe", "Pagamento registrato: Carta di credito o di debito."],
    ["paid:test", "Pagamento registrato: carta (pagamento di prova)."],
    ["paid:bank_transfer", "Pagamento registrato: Bonifico bancario."],
    [
      "paid:stripe:after-expired",
      "Pagamento arrivato quando l'ordine era già «Scaduto (non pagato)» (Carta di credito o di debito): gli articoli sono stati di nuovo riservati.",
    ],
    [
      "paid:bank_transfer:after-cancelled:refund-needed",
      "Pagamento arrivato quando l'ordine era già «Annullato» (Bonifico bancario), ma gli articoli non sono più disponibili: va rimborsato.",
    ],
    ["refund:card:re_123", "Rimborso eseguito: Carta di credito o di debito, riferimento re_123."],
    ["refund:cash_on_delivery", "Rimborso registrato: Contrassegno."],
    ["cancelled-by-shop", "Annullato dal negozio."],
    ["card-payment-failed", "Pagamento con carta non riuscito: gli articoli sono tornati disponibili."],
    ["bank-transfer-not-received", "Il bonifico non è arrivato in tempo: l'ordine è stato annullato."],
    [
      "gift-list-overflow:2 · 2 pz. pagati oltre",
      "2 pezzi pagati oltre quanto la lista chiedeva ancora: chiedere a chi regala se rimborsarli o tenerli come regalo in più.",
    ],
    ["Il cliente passa a ritirare sabato", "Il cliente passa a ritirare sabato"],
  ];
  for (const [note, text] of notes) expect(staffHistoryNoteText(it, note), note).toBe(text);
  expect(staffHistoryNoteText(en, "gift-list-overflow:1 · 1 pz.")).toBe(
    "1 unit paid beyond what the list still needed: ask the giver whether to refund it or keep it as an extra gift.",
  );
  expect(staffHistoryNoteText(en, "cancelled-by-shop")).toBe("Cancelled by the shop.");
  expect(staffHistoryNoteText(it, "group-gift-funded:1004-1007")).toBe("Regalo di gruppo completato: ordini collegati n. 1004, 1007.");
  expect(staffHistoryNoteText(en, "group-gift-funded:1009")).toBe("Group gift completed: linked order no. 1009.");
  expect(staffHistoryNoteText(it, "group-gift-out-of-stock")).toBe(
    "Regalo di gruppo completato senza articolo in magazzino: da ordinare al fornitore prima di spedire.",
  );
  expect(staffHistoryNoteText(it, null)).toBeNull();
});

test("customers read their payments and the shop's events; refunds' references, staff codes and unknown codes stay hidden", () => {
  expect(customerHistoryNoteText(it, "paid:stripe:after-expired")).toBe("Pagamento ricevuto.");
  expect(customerHistoryNoteText(en, "card-payment-abandoned")).toBe("Card payment cancelled: the items went back to the cart.");
  for (const note of ["refund:card:re_123", "gift-list-overflow:2 · testo", "cancelled-by-shop", "something-new:1"])
    expect(customerHistoryNoteText(it, note), note).toBeNull();
  expect(customerHistoryNoteText(it, "group-gift-contribution")).toBe("Contributo a un regalo di gruppo.");
  expect(customerHistoryNoteText(en, "group-gift-funded:1004-1007")).toBe("Group gift completed.");
  expect(customerHistoryNoteText(it, "group-gift-out-of-stock")).toBeNull();
  expect(customerHistoryNoteText(it, "Spedito con corriere espresso")).toBe("Spedito con corriere espresso");
  expect(readHistoryNote("paid:bitcoin")).toEqual({ code: "unknown", raw: "paid:bitcoin" });
});

test("a card payment for another amount reads as a warning for the staff and is not shown to the customer at all", () => {
  const note = paymentMismatchNote({ provider: "stripe", amountCents: 5570, currency: "eur", ref: "cs_test_a1b2" });
  const plain = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, " ");
  expect(plain(staffHistoryNoteText(it, note))).toBe(
    "Pagamento Carta di credito o di debito di 55,70 € diverso dal totale dell'ordine: non registrato come pagato (sessione cs_test_a1b2). Controlla il pagamento e rimborsa o contatta il cliente.",
  );
  expect(
    staffHistoryNoteText(en, paymentMismatchNote({ provider: "stripe", amountCents: 5570, currency: "usd", ref: "cs_test_a1b2" }), "en"),
  ).toContain("5570 USD differs from the order total");
  expect(customerHistoryNoteText(it, note)).toBeNull();
  expect(isStaffOnlyHistoryNote(note)).toBe(true);
  expect(isStaffOnlyHistoryNote("paid:stripe")).toBe(false);
});

test("the steps after the sale read in words for the customer and the staff, in both languages", () => {
  expect(readHistoryNote("refund-made:3:card:2500")).toEqual({
    code: "after-sales",
    step: "refund-made",
    returnNumber: 3,
    route: "card",
    amountCents: 2500,
  });
  expect(customerHistoryNoteText(it, "withdrawal-received:3")).toBe("Recesso ricevuto (reso n. 3).");
  expect(customerHistoryNoteText(it, "refund-made:3:card:2500", "it")?.replace(/\s/g, " ")).toBe(
    "Rimborso di 25,00 € eseguito (sulla carta), reso n. 3.",
  );
  expect(staffHistoryNoteText(en, "refund-issued:4:bank_transfer:1290", "en")).toBe("Refund of €12.90 started (by bank transfer), return no. 4.");
  expect(staffHistoryNoteText(en, "return-authorised:4")).toBe("Return no. 4 authorised: instructions sent by e-mail.");
  // Unknown steps stay codes the customer never sees.
  expect(customerHistoryNoteText(it, "return-lost:4")).toBeNull();
});
