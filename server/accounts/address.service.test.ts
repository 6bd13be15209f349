import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { addresses, users } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { createTestDb } from "#tests/db.ts";
import { badTextValues } from "#tests/fixtures/accounts.fixtures.ts";
import { addAddress, deleteAddress, listAddresses, setDefaultAddress, updateAddress } from "./address.service";
import { maxAddressesPerUser } from "./address.inputs";

async function openDbWithUsers() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  await handle.db.insert(users).values([
    { id: "anna", name: "Anna Esposito", email: "anna@example.com" },
    { id: "bruno", name: "Bruno Russo", email: "bruno@example.com" },
  ]);
  return handle.db;
}

const home = {
  label: "Casa",
  firstName: "Anna",
  lastName: "D'Angelo",
  street: "Via dell'Orto",
  houseNumber: "12/B",
  postcode: "80013",
  city: "Casalnuovo di Napoli",
  province: "na",
  phone: "+39 333 123 4567",
};

/** Each refusal is a message key that reads as a sentence in both languages. */
function expectClearMessage(key: string | undefined) {
  expect(key).toMatch(/^auth\.errors\./);
  for (const locale of ["it", "en"] as const) expect(getTranslator(locale)(key!, { max: 100 })).not.toBe(key);
}

test("an Italian address is saved, province in capitals, and the first one becomes the default", async () => {
  const db = await openDbWithUsers();
  const added = await addAddress(db, "anna", home);
  expect(added).toEqual({ ok: true, id: expect.any(Number) });
  const [saved] = await listAddresses(db, "anna");
  expect(saved).toMatchObject({ ...home, province: "NA", country: "IT", isDefault: true, userId: "anna" });
});

test("choosing another default leaves exactly one; deleting the default promotes the oldest other", async () => {
  const db = await openDbWithUsers();
  const first = await addAddress(db, "anna", home);
  const second = await addAddress(db, "anna", { ...home, label: "Nonni", isDefault: "on" });
  const third = await addAddress(db, "anna", { ...home, label: "Ufficio" });
  if (!first.ok || !second.ok || !third.ok) throw new Error("setup failed");
  const defaults = async () => (await listAddresses(db, "anna")).filter((address) => address.isDefault).map((address) => address.label);
  expect(await defaults()).toEqual(["Nonni"]);
  await setDefaultAddress(db, "anna", third.id);
  expect(await defaults()).toEqual(["Ufficio"]);
  await deleteAddress(db, "anna", third.id);
  expect(await defaults()).toEqual(["Casa"]);
  // Editing the default without the box ticked keeps it the default.
  await updateAddress(db, "anna", first.id, { ...home, city: "Napoli" });
  expect(await defaults()).toEqual(["Casa"]);
});

test("another customer's address is not found: not shown, not changed, not deleted", async () => {
  const db = await openDbWithUsers();
  const brunos = await addAddress(db, "bruno", { ...home, firstName: "Bruno", label: "Casa di Bruno" });
  await addAddress(db, "bruno", { ...home, firstName: "Bruno", label: "Secondo" });
  if (!brunos.ok) throw new Error("setup failed");
  const before = await listAddresses(db, "bruno");
  expect(await updateAddress(db, "anna", brunos.id, { ...home, city: "Roma", province: "RM" })).toEqual({ ok: false, notFound: true });
  expect(await deleteAddress(db, "anna", brunos.id)).toEqual({ ok: false, notFound: true });
  expect(await setDefaultAddress(db, "anna", before[1]!.id)).toEqual({ ok: false, notFound: true });
  expect(await listAddresses(db, "anna")).toEqual([]);
  expect(await listAddresses(db, "bruno")).toEqual(before);
});

test("ids that are not ids are simply not found", async () => {
  const db = await openDbWithUsers();
  for (const id of ["abc", "", "-1", "1.5", "99999999999", "1; DROP TABLE addresses", null, undefined]) {
    expect(await deleteAddress(db, "anna", id)).toEqual({ ok: false, notFound: true });
  }
});

test("wrong postcodes and provinces are refused with their own message", async () => {
  const db = await openDbWithUsers();
  const cases: [string, Record<string, string>, string][] = [
    ["postcode", { postcode: "8013" }, "auth.errors.postcodeInvalid"],
    ["postcode", { postcode: "800133" }, "auth.errors.postcodeInvalid"],
    ["postcode", { postcode: "80A13" }, "auth.errors.postcodeInvalid"],
    ["province", { province: "Napoli" }, "auth.errors.provinceInvalid"],
    ["province", { province: "XX" }, "auth.errors.provinceInvalid"],
    ["province", { province: "N1" }, "auth.errors.provinceInvalid"],
    ["houseNumber", { houseNumber: "#12" }, "auth.errors.houseNumberInvalid"],
    ["phone", { phone: "call me" }, "auth.errors.phoneInvalid"],
  ];
  for (const [field, change, message] of cases) {
    const result = await addAddress(db, "anna", { ...home, ...change });
    expect(result, `${field}=${JSON.stringify(change)}`).toEqual({ ok: false, errors: { [field]: message } });
  }
  expect(await db.$count(addresses)).toBe(0);
});

test("bad input on every field (empty, 10,000 characters, NUL byte, HTML, SQL) gets a clear message and stores nothing", async () => {
  const db = await openDbWithUsers();
  const optional = new Set(["label", "phone"]);
  for (const field of Object.keys(home)) {
    for (const [kind, value] of Object.entries(badTextValues)) {
      if (kind === "empty" && optional.has(field)) continue;
      const result = await addAddress(db, "anna", { ...home, [field]: value });
      expect(result.ok, `${field} ${kind}`).toBe(false);
      const errors = "errors" in result ? result.errors : {};
      expect(Object.keys(errors), `${field} ${kind}`).toEqual([field]);
      expectClearMessage(errors[field]);
    }
  }
  expect(await db.$count(addresses)).toBe(0);
  // A field missing from the post altogether is "required", not a crash.
  const { street: _street, ...withoutStreet } = home;
  expect(await addAddress(db, "anna", withoutStreet)).toEqual({ ok: false, errors: { street: "auth.errors.streetRequired" } });
});

test(`a customer keeps at most ${maxAddressesPerUser} addresses`, async () => {
  const db = await openDbWithUsers();
  await db
    .insert(addresses)
    .values(Array.from({ length: maxAddressesPerUser }, (_, i) => ({ ...home, province: "NA", label: `A${i}`, userId: "anna" })));
  expect(await addAddress(db, "anna", home)).toEqual({ ok: false, errors: { form: "auth.errors.addressLimit" } });
  expect(await db.$count(addresses, eq(addresses.userId, "anna"))).toBe(maxAddressesPerUser);
});
