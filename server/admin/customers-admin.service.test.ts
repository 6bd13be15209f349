import { expect, onTestFinished, test } from "vitest";
import { callerFor, createTestAuthServices, insertOrder, userIdOf } from "#tests/fixtures/accounts.fixtures.ts";
import { registerCustomer } from "#server/accounts/auth-flows.service.ts";
import { accounts, addresses, auditLog, giftLists, profiles } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { getAdminCustomer, listAdminCustomers, parseAdminCustomerFilters } from "./customers-admin.service";

const slow = { timeout: 90_000 };
const password = "Tr3no-Blu-Vesuvio";

async function openShop() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const services = createTestAuthServices(handle.db);
  for (const [name, email] of [
    ["Anna Esposito", "anna@example.com"],
    ["Nicolò Russo", "nico.russo@example.it"],
  ] as const) {
    await registerCustomer(services, callerFor("/"), { name, email, password, passwordConfirm: password, privacy: "on" });
  }
  return { db: handle.db, annaId: (await userIdOf(handle.db, "anna@example.com"))!, nicoId: (await userIdOf(handle.db, "nico.russo@example.it"))! };
}

test("staff find a customer by words of the name (accents ignored) or part of the e-mail", slow, async () => {
  const { db } = await openShop();
  const names = async (q: string) =>
    (await listAdminCustomers(db, parseAdminCustomerFilters(new URLSearchParams({ q })))).rows.map((row) => row.name);
  expect(await names("")).toEqual(["Nicolò Russo", "Anna Esposito"]);
  expect(await names("nicolo")).toEqual(["Nicolò Russo"]);
  expect(await names("ESPOSITO anna")).toEqual(["Anna Esposito"]);
  expect(await names("@example.it")).toEqual(["Nicolò Russo"]);
  expect(await names("%")).toEqual([]);
  expect(await names("esposito russo")).toEqual([]);
});

test("a customer's page: profile, addresses, orders and gift lists; nothing of the password, and nothing written", slow, async () => {
  const { db, annaId, nicoId } = await openShop();
  await db
    .insert(profiles)
    .values({ userId: annaId, phone: "+39 333 123 4567", preferredLocale: "en" })
    .onConflictDoUpdate({ target: profiles.userId, set: { phone: "+39 333 123 4567", preferredLocale: "en" } });
  await db.insert(addresses).values({
    userId: annaId,
    firstName: "Anna",
    lastName: "Esposito",
    street: "Via Roma",
    houseNumber: "12",
    postcode: "80013",
    city: "Casalnuovo di Napoli",
    province: "NA",
    isDefault: true,
  });
  const first = await insertOrder(db, annaId, { createdAt: new Date("2026-03-01T10:00:00Z") });
  const second = await insertOrder(db, annaId, { createdAt: new Date("2026-03-02T10:00:00Z") });
  await insertOrder(db, nicoId);
  await insertOrder(db, null);
  await db
    .insert(giftLists)
    .values({ code: "ANNA2345", ownerUserId: annaId, title: "Benvenuta Sofia", eventDate: "2026-06-01", celebratedNames: "Sofia" });

  const customer = await getAdminCustomer(db, annaId);
  expect(customer).toMatchObject({
    name: "Anna Esposito",
    email: "anna@example.com",
    phone: "+39 333 123 4567",
    preferredLocale: "en",
    isAdmin: false,
    orderCount: 2,
    giftListCount: 1,
  });
  expect(customer!.orders.map((order) => order.number)).toEqual([second.number, first.number]);
  expect(customer!.giftLists.map((list) => list.code)).toEqual(["ANNA2345"]);
  expect(customer!.addresses).toEqual([expect.objectContaining({ street: "Via Roma", city: "Casalnuovo di Napoli", isDefault: true })]);
  const [listed] = (await listAdminCustomers(db, parseAdminCustomerFilters(new URLSearchParams({ q: "anna" })))).rows;
  expect(listed).toMatchObject({ orderCount: 2, giftListCount: 1 });

  // The password hash is in the database, never in what the page gets: no field, no value.
  const [credential] = await db.select({ password: accounts.password }).from(accounts);
  expect(credential!.password).toBeTruthy();
  for (const answer of [customer, listed]) {
    const text = JSON.stringify(answer);
    expect(text).not.toContain(credential!.password!);
    expect(text).not.toMatch(/password|credential/i);
  }
  expect(await db.$count(auditLog)).toBe(0);
  expect(await getAdminCustomer(db, "nobody")).toBeNull();
  expect(await getAdminCustomer(db, "../../etc/passwd")).toBeNull();
});
