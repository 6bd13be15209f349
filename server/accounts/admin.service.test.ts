import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { users } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { callerFor, createTestAuthServices } from "#tests/fixtures/accounts.fixtures.ts";
import { makeAdmin } from "./admin.service";
import { logIn, registerCustomer } from "./auth-flows.service";

const slow = { timeout: 60_000 };

async function openServices() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return createTestAuthServices(handle.db);
}

test("a new admin is created with a generated password that works once printed", slow, async () => {
  const services = await openServices();
  const result = await makeAdmin(services, { email: "Titolare@Example.com" });
  expect(result).toMatchObject({ ok: true, outcome: "created", email: "titolare@example.com", passwordGenerated: true });
  const password = result.ok && result.outcome === "created" ? result.password : "";
  expect(password).toHaveLength(24);
  const [admin] = await services.db.select().from(users).where(eq(users.email, "titolare@example.com"));
  expect(admin).toMatchObject({ role: "admin", emailVerified: true });
  expect((await logIn(services, callerFor("/"), { email: "titolare@example.com", password })).ok).toBe(true);
});

test("an existing customer is promoted; running it again says so", slow, async () => {
  const services = await openServices();
  await registerCustomer(services, callerFor("/"), {
    name: "Anna",
    email: "anna@example.com",
    password: "Tr3no-Blu-Vesuvio",
    passwordConfirm: "Tr3no-Blu-Vesuvio",
    privacy: "on",
  });
  expect(await makeAdmin(services, { email: "anna@example.com" })).toEqual({ ok: true, outcome: "promoted", email: "anna@example.com" });
  expect(await makeAdmin(services, { email: "anna@example.com" })).toEqual({ ok: true, outcome: "already-admin", email: "anna@example.com" });
  expect(await services.db.$count(users)).toBe(1);
});

test("a bad address or a weak chosen password is refused", slow, async () => {
  const services = await openServices();
  expect(await makeAdmin(services, { email: "not-an-address" })).toEqual({ ok: false, error: "email-invalid" });
  expect(await makeAdmin(services, { email: "boss@example.com", password: "password1" })).toEqual({ ok: false, error: "password-weak" });
  expect(await services.db.$count(users)).toBe(0);
});
