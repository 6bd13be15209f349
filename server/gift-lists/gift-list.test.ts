import { expect, test } from "vitest";
import {
  arrivesAfterEvent,
  canDeleteGiftList,
  escapeLikePattern,
  generateGiftListCode,
  isEventDateAllowed,
  isGiftListOwner,
  maxGuestQuantity,
  normaliseGiftListCode,
  normaliseSearchName,
  searchWordsOf,
  splitEmailList,
  stillNeeded,
} from "./gift-list.ts";
import { giftListInput, InvitationInput, parseGiftListForm } from "./gift-list.inputs.ts";

const schemaCheck = /^[A-HJ-KM-NP-Z2-9]{8}$/;

test("new codes have 8 characters of the schema's alphabet, without look-alikes", () => {
  let seed = 7;
  const random = (size: number) => (seed = (seed * 31 + 11) % 9973) % size;
  for (let index = 0; index < 200; index++) {
    const code = generateGiftListCode(random);
    expect(code).toMatch(schemaCheck);
    expect(code).not.toMatch(/[01ILO]/);
  }
  expect(generateGiftListCode(() => 0)).toBe("AAAAAAAA");
  expect(generateGiftListCode((size) => size - 1)).toBe("99999999");
});

test("a typed code is read in any case, with spaces or dashes; anything else is not a code", () => {
  expect(normaliseGiftListCode(" ab3c-d4ef ")).toBe("AB3CD4EF");
  expect(normaliseGiftListCode("AB3C D4EF")).toBe("AB3CD4EF");
  expect(normaliseGiftListCode("AB3CD4E")).toBeNull();
  expect(normaliseGiftListCode("AB3CD4E0")).toBeNull();
  expect(normaliseGiftListCode("'; drop table gift_lists; --")).toBeNull();
  expect(normaliseGiftListCode("<script>alert(1)</script>")).toBeNull();
});

test("names are compared without case and accents; every word must match", () => {
  expect(normaliseSearchName("  Nicolò  e ANDREA ")).toBe("nicolo e andrea");
  expect(searchWordsOf("Nicolò e Andrea")).toEqual(["nicolo", "andrea"]);
  expect(searchWordsOf("%_")).toEqual([]);
  expect(escapeLikePattern("50%_a\\b")).toBe("50\\%\\_a\\\\b");
});

test("still needed, and what a guest may add, never go below zero", () => {
  expect(stillNeeded({ quantityWished: 3, quantityBought: 1 })).toBe(2);
  expect(stillNeeded({ quantityWished: 3, quantityBought: 3 })).toBe(0);
  expect(maxGuestQuantity({ stillNeeded: 2, inCart: 0, stock: 10 })).toBe(2);
  expect(maxGuestQuantity({ stillNeeded: 2, inCart: 1, stock: 10 })).toBe(1);
  expect(maxGuestQuantity({ stillNeeded: 5, inCart: 0, stock: 1 })).toBe(1);
  expect(maxGuestQuantity({ stillNeeded: 1, inCart: 3, stock: 10 })).toBe(0);
});

test("a pre-order that would arrive after the event gets a warning", () => {
  const now = new Date("2026-03-01T10:00:00Z");
  expect(arrivesAfterEvent({ isPreorder: true, preorderDays: 20 }, "2026-03-10", now)).toBe(true);
  expect(arrivesAfterEvent({ isPreorder: true, preorderDays: 5 }, "2026-03-10", now)).toBe(false);
  expect(arrivesAfterEvent({ isPreorder: false, preorderDays: null }, "2026-03-02", now)).toBe(false);
});

test("the event date of a new list is today or later, in Italy's calendar", () => {
  // 23:30 UTC on 28 February is already 1 March in Rome.
  const now = new Date("2026-02-28T23:30:00Z");
  expect(isEventDateAllowed("2026-03-01", now)).toBe(true);
  expect(isEventDateAllowed("2026-02-28", now)).toBe(false);
});

test("only the owner is the owner; a list with purchases cannot be deleted", () => {
  expect(isGiftListOwner({ ownerUserId: "a" }, "a")).toBe(true);
  expect(isGiftListOwner({ ownerUserId: "a" }, "b")).toBe(false);
  expect(isGiftListOwner({ ownerUserId: "a" }, null)).toBe(false);
  expect(canDeleteGiftList([{ quantityBought: 0 }], 0)).toBe(true);
  expect(canDeleteGiftList([{ quantityBought: 1 }], 0)).toBe(false);
  expect(canDeleteGiftList([], 1)).toBe(false);
});

test("invitation addresses: split, lower-cased, de-duplicated; 51 or malformed ones refused", () => {
  expect(splitEmailList("A@x.it, b@x.it;\nb@x.it  c@x.it")).toEqual(["a@x.it", "b@x.it", "c@x.it"]);
  const fifty = Array.from({ length: 50 }, (_, index) => `ospite${index}@example.it`).join("\n");
  expect(parseGiftListForm(InvitationInput, { emails: fifty }).ok).toBe(true);
  const fiftyOne = `${fifty}\nultimo@example.it`;
  expect(parseGiftListForm(InvitationInput, { emails: fiftyOne })).toMatchObject({ ok: false, errors: { emails: "giftLists.errors.tooManyEmails" } });
  expect(parseGiftListForm(InvitationInput, { emails: "nonna@example.it, zia@, <b>x</b>" })).toEqual({
    ok: false,
    errors: { emails: "giftLists.errors.emailsInvalid" },
    bad: ["zia@", "<b>x</b>"],
  });
  expect(parseGiftListForm(InvitationInput, { emails: "  " })).toMatchObject({ ok: false, errors: { emails: "giftLists.errors.emailsRequired" } });
});

test("the list form: each field has its own message, markup is refused", () => {
  const good = {
    title: "La lista di Sofia",
    type: "nascita",
    eventDate: "2030-05-01",
    celebratedNames: "Sofia",
    messageToGuests: "Grazie!\nA presto",
    shippingAddressId: "collection",
    visibility: "public",
  };
  const GiftListInput = giftListInput({ now: new Date("2026-03-01T10:00:00Z") });
  expect(parseGiftListForm(GiftListInput, good)).toEqual({ ok: true, value: { ...good, shippingAddressId: null } });
  expect(parseGiftListForm(GiftListInput, { ...good, shippingAddressId: "12" })).toMatchObject({ ok: true, value: { shippingAddressId: 12 } });
  const bad = parseGiftListForm(GiftListInput, {
    title: "<script>x</script>",
    type: "matrimonio",
    eventDate: "2030-02-30",
    celebratedNames: " ",
    shippingAddressId: "1 or 1=1",
    visibility: "secret",
  });
  expect(bad).toEqual({
    ok: false,
    errors: {
      title: "giftLists.errors.invalidCharacters",
      type: "giftLists.errors.typeRequired",
      eventDate: "giftLists.errors.eventDateInvalid",
      celebratedNames: "giftLists.errors.celebratedNamesRequired",
      shippingAddressId: "giftLists.errors.deliveryRequired",
      visibility: "giftLists.errors.visibilityRequired",
    },
  });
});

test("a past event date is refused together with the other fields' problems; an edited list may keep its own past date", () => {
  const now = new Date("2026-03-01T10:00:00Z");
  const past = parseGiftListForm(giftListInput({ now }), {
    title: "",
    type: "nascita",
    eventDate: "2026-02-28",
    celebratedNames: "",
    shippingAddressId: "collection",
    visibility: "public",
  });
  expect(past).toEqual({
    ok: false,
    errors: {
      title: "giftLists.errors.titleRequired",
      eventDate: "giftLists.errors.eventDatePast",
      celebratedNames: "giftLists.errors.celebratedNamesRequired",
    },
  });
  const form = { title: "La lista di Sofia", type: "nascita", celebratedNames: "Sofia", shippingAddressId: "collection", visibility: "public" };
  expect(parseGiftListForm(giftListInput({ now, keepDate: "2026-01-15" }), { ...form, eventDate: "2026-01-15" })).toMatchObject({ ok: true });
  expect(parseGiftListForm(giftListInput({ now, keepDate: "2026-01-15" }), { ...form, eventDate: "2026-01-16" })).toMatchObject({
    ok: false,
    errors: { eventDate: "giftLists.errors.eventDatePast" },
  });
  // Today in Italy is allowed even when it is still yesterday in UTC.
  expect(parseGiftListForm(giftListInput({ now: new Date("2026-02-28T23:30:00Z") }), { ...form, eventDate: "2026-03-01" })).toMatchObject({
    ok: true,
  });
});
