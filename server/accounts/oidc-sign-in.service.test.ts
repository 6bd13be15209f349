import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { accounts, users } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { callerFor, createTestAuthServices, routeContext, requestFor, testPublicUrl } from "./accounts.fixtures";
import { CookieJar } from "#tests/cookie-jar.ts";
import { startOidcSignIn } from "./auth-flows.service";
import { localOidcIdentity, signInAtLocalProvider, startLocalOidcProvider } from "./local-oidc-provider";
import { loader as loginPageLoader } from "#app/routes/account/login-register.tsx";

/** Each test hashes several passwords (scrypt): slow on a busy 2-core machine. */
const slow = { timeout: 60_000 };

async function openServicesWithProvider() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const idp = await startLocalOidcProvider({ redirectUri: `${testPublicUrl}/api/auth/callback/oidc` });
  onTestFinished(() => idp.close());
  const services = createTestAuthServices(handle.db, {
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_PROVIDER_NAME: "Identità Locale",
  });
  return { services, idp };
}

/** The whole authorization-code flow: the shop's redirect, the provider's login, the shop's callback. */
async function signInThroughProvider(services: Awaited<ReturnType<typeof openServicesWithProvider>>["services"], login: string, redirectTo = "/shopping") {
  const jar = new CookieJar();
  const started = await startOidcSignIn(services, callerFor("/login-register"), redirectTo);
  if (!started.ok) throw new Error("the provider is not configured");
  jar.take(started.headers);
  const callbackUrl = await signInAtLocalProvider(started.url, login);
  expect(callbackUrl.startsWith(`${testPublicUrl}/api/auth/callback/oidc?`)).toBe(true);
  const callback = await services.auth.handler(requestFor(callbackUrl, { jar }));
  jar.take(callback.headers);
  return { jar, callback };
}

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

  // The login page, reached with the session, sends the person on to where they were going.
  const context = routeContext(services);
  const url = new URL(location.href);
  const finished = await loginPageLoader({ request: requestFor(url.pathname + url.search, { jar }), url, context, params: {} } as never).catch((thrown) => thrown);
  expect(finished).toBeInstanceOf(Response);
  expect((finished as Response).status).toBe(302);
  expect((finished as Response).headers.get("location")).toBe("/shopping");
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

test("without OIDC settings there is no provider button and no way to start one", slow, async () => {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const services = createTestAuthServices(handle.db);
  expect(await startOidcSignIn(services, callerFor("/login-register"), "/")).toEqual({ ok: false });
  const url = new URL("/login-register", testPublicUrl);
  const page = await loginPageLoader({ request: requestFor("/login-register"), url, context: routeContext(services), params: {} } as never);
  expect(page.oidcName).toBeNull();
});
