import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { accounts, profiles, users } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { badTextValues } from "#tests/fixtures/accounts.fixtures.ts";
import { getAccountProfile, updateProfile } from "./profile.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  await handle.db.insert(users).values([
    { id: "anna", name: "Anna Esposito", email: "anna@example.com" },
    { id: "bruno", name: "Bruno Russo", email: "bruno@example.com" },
  ]);
  await handle.db.insert(accounts).values({ id: "cred-anna", accountId: "anna", providerId: "credential", userId: "anna", password: "hash" });
  return handle.db;
}

test("name, phone and fiscal code are saved for the person only", async () => {
  const db = await openDb();
  expect(await updateProfile(db, "anna", { name: "Anna Maria Esposito", phone: "081 123 4567", fiscalCode: "rssmra85t10a562s" })).toEqual({
    ok: true,
  });
  expect(await getAccountProfile(db, "anna")).toMatchObject({
    name: "Anna Maria Esposito",
    email: "anna@example.com",
    phone: "081 123 4567",
    fiscalCode: "RSSMRA85T10A562S",
    hasPassword: true,
  });
  expect(await getAccountProfile(db, "bruno")).toMatchObject({ name: "Bruno Russo", phone: null, fiscalCode: null, hasPassword: false });
  // Blank optional fields clear them.
  expect(await updateProfile(db, "anna", { name: "Anna Esposito", phone: "", fiscalCode: "" })).toEqual({ ok: true });
  expect(await getAccountProfile(db, "anna")).toMatchObject({ phone: null, fiscalCode: null });
});

test("a wrong fiscal code or phone is refused on its field", async () => {
  const db = await openDb();
  expect(await updateProfile(db, "anna", { name: "Anna", fiscalCode: "RSSMRA85T10A562X" })).toEqual({
    ok: false,
    errors: { fiscalCode: "auth.errors.fiscalCodeInvalid" },
  });
  expect(await updateProfile(db, "anna", { name: "Anna", phone: "12" })).toEqual({ ok: false, errors: { phone: "auth.errors.phoneInvalid" } });
});

test("bad input on every profile field gets a message and changes nothing", async () => {
  const db = await openDb();
  const valid = { name: "Anna Esposito", phone: "081 123 4567", fiscalCode: "RSSMRA85T10A562S" };
  for (const field of Object.keys(valid)) {
    for (const [kind, value] of Object.entries(badTextValues)) {
      if (kind === "empty" && field !== "name") continue;
      const result = await updateProfile(db, "anna", { ...valid, [field]: value });
      expect(result.ok, `${field} ${kind}`).toBe(false);
      expect(Object.keys(result.ok ? {} : result.errors), `${field} ${kind}`).toEqual([field]);
    }
  }
  expect(await db.$count(profiles)).toBe(0);
  const [anna] = await db.select({ name: users.name }).from(users).where(eq(users.id, "anna"));
  expect(anna?.name).toBe("Anna Esposito");
});
