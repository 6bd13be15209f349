import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { shopSettings, users } from "#server/db/schema.ts";
import { readContentVersions } from "#server/catalog/catalogue-cache.ts";
import { seedDefaultSettings } from "#server/settings/settings.service.ts";
import { createTestDb } from "#tests/db.ts";
import { callerFor, createTestAuthServices } from "#tests/fixtures/accounts.fixtures.ts";
import { makeAdmin } from "./admin.service";
import { logIn } from "./auth-flows.service";
import { createOwnerAccount, isOwnerSetupLinkValid, makeOwnerSetupLink } from "./owner-setup.service";

const slow = { timeout: 60_000 };

async function openServices() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return createTestAuthServices(handle.db);
}

const tokenOf = (link: string | null) => new URL(link ?? "", "http://shop.test").searchParams.get("token") ?? "";

const owner = { name: "Carla Esposito", email: "Carla@Example.com", password: "Culla-Verde-Sorrento-71", passwordConfirm: "Culla-Verde-Sorrento-71" };

const adminCount = async (services: Awaited<ReturnType<typeof openServices>>) => services.db.$count(users, eq(users.role, "admin"));

test("the link creates the owner's account once; the owner can sign in; the link is then refused", slow, async () => {
  const services = await openServices();
  const link = await makeOwnerSetupLink(services.db);
  expect(link).toMatch(/^\/admin\/setup\?token=[A-Za-z0-9_-]{43}$/);
  const token = tokenOf(link);
  expect(await isOwnerSetupLinkValid(services.db, token)).toBe(true);

  expect(await createOwnerAccount(services, { ...owner, token })).toEqual({ ok: true, email: "carla@example.com" });
  const [created] = await services.db.select().from(users).where(eq(users.email, "carla@example.com"));
  expect(created).toMatchObject({ name: "Carla Esposito", role: "admin", emailVerified: true });
  expect((await logIn(services, callerFor("/"), { email: owner.email, password: owner.password })).ok).toBe(true);

  expect(await isOwnerSetupLinkValid(services.db, token)).toBe(false);
  const again = await createOwnerAccount(services, { ...owner, email: "altro@example.com", token });
  expect(again).toEqual({ ok: false, errors: { form: "ownerSetup.errors.linkInvalid" } });
  expect(await adminCount(services)).toBe(1);
});

test("the token is kept only as a hash, and a shop with an administrator makes no link", slow, async () => {
  const services = await openServices();
  const token = tokenOf(await makeOwnerSetupLink(services.db));
  const kept = await services.db.select().from(shopSettings);
  expect(JSON.stringify(kept)).not.toContain(token);

  await makeAdmin(services, { email: "titolare@example.com" });
  expect(await makeOwnerSetupLink(services.db)).toBeNull();
  // An older link stops working as soon as there is an administrator, and is dropped at the next start.
  expect(await isOwnerSetupLinkValid(services.db, token)).toBe(false);
  expect((await services.db.select().from(shopSettings)).filter((row) => row.key.startsWith("owner-setup:"))).toEqual([]);
});

test("making, using and dropping links keeps every kept page: the page-content version does not move", slow, async () => {
  const services = await openServices();
  const before = (await readContentVersions(services.db)).pageContent;
  const token = tokenOf(await makeOwnerSetupLink(services.db));
  await makeOwnerSetupLink(services.db);
  expect((await readContentVersions(services.db)).pageContent).toBe(before);
  expect((await createOwnerAccount(services, { ...owner, token })).ok).toBe(true);
  expect(await makeOwnerSetupLink(services.db)).toBeNull();
  expect((await readContentVersions(services.db)).pageContent).toBe(before);
  // A setting the pages show still moves it.
  await seedDefaultSettings(services.db);
  expect((await readContentVersions(services.db)).pageContent).not.toBe(before);
});

test("an expired link is refused and creates nothing", slow, async () => {
  const services = await openServices();
  const madeAt = new Date("2026-11-28T08:00:00Z");
  const token = tokenOf(await makeOwnerSetupLink(services.db, madeAt));
  const dayLater = new Date("2026-11-29T08:00:01Z");
  expect(await isOwnerSetupLinkValid(services.db, token, new Date("2026-11-29T07:59:00Z"))).toBe(true);
  expect(await isOwnerSetupLinkValid(services.db, token, dayLater)).toBe(false);
  expect(await createOwnerAccount(services, { ...owner, token }, dayLater)).toEqual({ ok: false, errors: { form: "ownerSetup.errors.linkInvalid" } });
  expect(await services.db.$count(users)).toBe(0);
});

test("a wrong, malformed or missing token is refused and the real link still works", slow, async () => {
  const services = await openServices();
  const token = tokenOf(await makeOwnerSetupLink(services.db));
  const wrong = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
  for (const bad of [wrong, "short", `${token}'; DROP TABLE users; --`, undefined, ""]) {
    expect(await createOwnerAccount(services, { ...owner, token: bad })).toEqual({ ok: false, errors: { form: "ownerSetup.errors.linkInvalid" } });
  }
  expect(await services.db.$count(users)).toBe(0);
  expect(await createOwnerAccount(services, { ...owner, token })).toMatchObject({ ok: true });
});

test("a form with a problem says which field and changes nothing: the link still works", slow, async () => {
  const services = await openServices();
  const token = tokenOf(await makeOwnerSetupLink(services.db));
  const cases: [Record<string, unknown>, Record<string, string>][] = [
    [{ email: "not-an-address" }, { email: "auth.errors.emailInvalid" }],
    [{ name: "" }, { name: "auth.errors.nameRequired" }],
    [{ password: "short", passwordConfirm: "short" }, { password: "auth.errors.passwordTooShort" }],
    [{ passwordConfirm: "Culla-Verde-Sorrento-72" }, { passwordConfirm: "auth.errors.passwordsDoNotMatch" }],
    [{ password: "password123", passwordConfirm: "password123" }, { password: "auth.errors.passwordTooCommon" }],
  ];
  for (const [change, errors] of cases) {
    const result = await createOwnerAccount(services, { ...owner, ...change, token });
    expect(result).toMatchObject({ ok: false, errors });
  }
  expect(await services.db.$count(users)).toBe(0);
  expect(await isOwnerSetupLinkValid(services.db, token)).toBe(true);
});

test("an address that already has an account is refused, and the link still works", slow, async () => {
  const services = await openServices();
  const token = tokenOf(await makeOwnerSetupLink(services.db));
  await services.auth.api.createUser({ body: { email: "carla@example.com", password: "Tr3no-Blu-Vesuvio", name: "Carla" } });
  expect(await createOwnerAccount(services, { ...owner, token })).toEqual({ ok: false, errors: { email: "ownerSetup.errors.emailTaken" } });
  expect(await adminCount(services)).toBe(0);
  expect(await isOwnerSetupLinkValid(services.db, token)).toBe(true);
});

test("two links from two starts both work until the owner exists; then neither does", slow, async () => {
  const services = await openServices();
  const first = tokenOf(await makeOwnerSetupLink(services.db));
  const second = tokenOf(await makeOwnerSetupLink(services.db));
  expect(await createOwnerAccount(services, { ...owner, token: first })).toMatchObject({ ok: true });
  expect(await isOwnerSetupLinkValid(services.db, second)).toBe(false);
  expect(await createOwnerAccount(services, { ...owner, email: "b@example.com", token: second })).toMatchObject({ ok: false });
  expect(await adminCount(services)).toBe(1);
});
