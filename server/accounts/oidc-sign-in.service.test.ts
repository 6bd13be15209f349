import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { accounts, users } from "#server/db/schema.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { createTestDb } from "#tests/db.ts";
import { callerFor, createTestAuthServices, requestFor, testPublicUrl } from "#tests/fixtures/accounts.fixtures.ts";
import { openServicesWithProvider, signInThroughProvider } from "#tests/fixtures/oidc.fixtures.ts";
import { localOidcIdentity, signInAtLocalProvider } from "#tests/peers/local-oidc-provider.ts";
import { startOidcSignIn } from "./auth-flows.service";

/** Each test hashes several passwords (scrypt): slow on a busy 2-core machine. */
const slow = { timeout: 60_000 };

test("signing in with the external provider creates the account and a session, then finishes on the login page", slow, async () => {
  const { services } = await openServicesWithProvider();
  const { jar, callback } = await signInThroughProvider(services, "giulia");
  expect(callback.status).toBe(302);
  const location = new URL(callback.headers.get("location")!, testPublicUrl);
  expect(location.pathname).toBe("/login-register");
  expect(location.searchParams.get("completed")).toBe("oidc");
  expect(location.searchParams.get("redirectTo")).toBe("/shopping");

  const session = await services.auth.api.getSession({ headers: new Headers({ Cookie: jar.header() }) });
  expect(session?.user).toMatchObject({ email: "giulia@oidc.example", name: "Giulia Bianchi", emailVerified: true, role: "customer" });
  const [link] = await services.db.select().from(accounts).where(eq(accounts.userId, session!.user.id));
  expect(link).toMatchObject({ providerId: "oidc", accountId: localOidcIdentity("giulia").sub, password: null });
});

test("a second sign-in with the provider finds the same account", slow, async () => {
  const { services } = await openServicesWithProvider();
  await signInThroughProvider(services, "giulia");
  await signInThroughProvider(services, "giulia");
  expect(await services.db.$count(users, eq(users.email, "giulia@oidc.example"))).toBe(1);
});

test("a callback with a forged state is refused and signs nobody in", slow, async () => {
  const { services } = await openServicesWithProvider();
  const started = await startOidcSignIn(services, callerFor("/login-register"), "/");
  if (!started.ok) throw new Error("the provider is not configured");
  const callbackUrl = new URL(await signInAtLocalProvider(started.url, "mallory"));
  callbackUrl.searchParams.set("state", "forged-state");
  const jar = new CookieJar().take(started.headers);
  const callback = await services.auth.handler(requestFor(callbackUrl.href, { jar }));
  jar.take(callback.headers);
  expect(await services.auth.api.getSession({ headers: new Headers({ Cookie: jar.header() }) })).toBeNull();
  expect(await services.db.$count(users)).toBe(0);
});

test("without OIDC settings there is no way to start a sign-in with a provider", slow, async () => {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const services = createTestAuthServices(handle.db);
  expect(await startOidcSignIn(services, callerFor("/login-register"), "/")).toEqual({ ok: false });
});
