import { eq, like } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { rateLimits, sessions, users, verifications } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { callerFor, countMails, createTestAuthServices, lastMail, requestFor, testPublicUrl, userIdOf } from "#tests/fixtures/accounts.fixtures.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { addToCart, findCartIdOfUser } from "#server/cart/cart.service.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import {
  logIn,
  logOut,
  logOutEverywhere,
  mergeCartIntoAccount,
  registerCustomer,
  requestPasswordReset,
  resetPassword,
  verifyEmail,
} from "./auth-flows.service";
import { clientIpHeader } from "./auth-request";

/** Each test hashes several passwords (scrypt): slow on a busy 2-core machine. */
const slow = { timeout: 60_000 };

async function openServices() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return createTestAuthServices(handle.db);
}

const newCustomer = {
  name: "Maria Rossi",
  email: "maria.rossi@example.com",
  password: "Tr3no-Blu-Vesuvio",
  passwordConfirm: "Tr3no-Blu-Vesuvio",
  privacy: "on",
};

async function sessionUser(services: Awaited<ReturnType<typeof openServices>>, jar: CookieJar) {
  return services.auth.api.getSession({ headers: new Headers({ Cookie: jar.header() }) });
}

test("registering sends a verification link; following it confirms the address and signs in", slow, async () => {
  const services = await openServices();
  const registered = await registerCustomer(services, callerFor("/login-register"), newCustomer);
  expect(registered).toEqual({ ok: true });

  const [user] = await services.db.select().from(users).where(eq(users.email, newCustomer.email));
  expect(user).toMatchObject({ name: "Maria Rossi", emailVerified: false, role: "customer" });
  const mail = await lastMail(services.db, newCustomer.email, "verify-email");
  expect(mail?.locale).toBe("it");
  expect(mail?.subject).toMatch(/conferma/i);
  expect(mail?.link).toMatch(new RegExp(`^${testPublicUrl}/verify-email\\?token=`));

  const token = new URL(mail!.link!).searchParams.get("token");
  const verified = await verifyEmail(services, callerFor("/verify-email"), token);
  expect(verified).toMatchObject({ ok: true, signedInUserId: user!.id });
  const jar = new CookieJar().take(verified.ok ? verified.headers : null);
  const session = await sessionUser(services, jar);
  expect(session?.user).toMatchObject({ email: newCustomer.email, emailVerified: true });
});

test("an English registration gets its mail in English, with an /en link", slow, async () => {
  const services = await openServices();
  await registerCustomer(services, callerFor("/en/login-register", { locale: "en" }), newCustomer);
  const mail = await lastMail(services.db, newCustomer.email, "verify-email");
  expect(mail?.locale).toBe("en");
  expect(mail?.subject).toMatch(/confirm/i);
  expect(mail?.link).toMatch(new RegExp(`^${testPublicUrl}/en/verify-email\\?token=`));
});

test("registering an address that has an account answers the same and only tells its owner", slow, async () => {
  const services = await openServices();
  await registerCustomer(services, callerFor("/login-register"), newCustomer);
  const again = await registerCustomer(services, callerFor("/login-register"), {
    ...newCustomer,
    name: "Intruso",
    password: "Altra-Password-99",
    passwordConfirm: "Altra-Password-99",
  });
  expect(again).toEqual({ ok: true });
  const accounts = await services.db.$count(users);
  expect(accounts).toBe(1);
  const [user] = await services.db.select({ name: users.name }).from(users);
  expect(user?.name).toBe("Maria Rossi");
  const notice = await lastMail(services.db, newCustomer.email, "existing-account");
  expect(notice?.link).toBe(`${testPublicUrl}/forgot-password`);
  // The intruder's password does not open the account.
  const login = await logIn(services, callerFor("/login-register"), { email: newCustomer.email, password: "Altra-Password-99" });
  expect(login).toEqual({ ok: false, errors: { form: "auth.errors.invalidCredentials" } });
});

test("weak, mismatched or personal passwords are refused on their field and nothing is stored", slow, async () => {
  const services = await openServices();
  expect(await registerCustomer(services, callerFor("/"), { ...newCustomer, password: "password1", passwordConfirm: "password1" })).toEqual({
    ok: false,
    errors: { password: "auth.errors.passwordTooCommon" },
  });
  expect(await registerCustomer(services, callerFor("/"), { ...newCustomer, password: "mariarossi", passwordConfirm: "mariarossi" })).toEqual({
    ok: false,
    errors: { password: "auth.errors.passwordLikePersonal" },
  });
  expect(await registerCustomer(services, callerFor("/"), { ...newCustomer, passwordConfirm: "Tr3no-Blu-Vesuvi0" })).toEqual({
    ok: false,
    errors: { passwordConfirm: "auth.errors.passwordsDoNotMatch" },
  });
  expect(await registerCustomer(services, callerFor("/"), { ...newCustomer, password: "Ab1-", passwordConfirm: "Ab1-" })).toEqual({
    ok: false,
    errors: { password: "auth.errors.passwordTooShort" },
  });
  expect(await services.db.$count(users)).toBe(0);
  expect(await countMails(services.db, newCustomer.email)).toBe(0);
});

test("login works before verification; a wrong password and an unknown address get the same message", slow, async () => {
  const services = await openServices();
  await registerCustomer(services, callerFor("/"), newCustomer);
  const ok = await logIn(services, callerFor("/login-register"), { email: "Maria.Rossi@Example.com", password: newCustomer.password });
  expect(ok.ok).toBe(true);
  const jar = new CookieJar().take(ok.ok ? ok.headers : null);
  expect((await sessionUser(services, jar))?.user.email).toBe(newCustomer.email);

  const wrong = await logIn(services, callerFor("/"), { email: newCustomer.email, password: "not-the-password" });
  const unknown = await logIn(services, callerFor("/"), { email: "nobody@example.com", password: "not-the-password" });
  expect(wrong).toEqual({ ok: false, errors: { form: "auth.errors.invalidCredentials" } });
  expect(unknown).toEqual(wrong);
});

test("the 6th wrong password within a minute is refused, even a right one, until the minute has passed", slow, async () => {
  const services = await openServices();
  await registerCustomer(services, callerFor("/"), newCustomer);
  for (let attempt = 1; attempt <= 5; attempt++) {
    expect(
      await logIn(services, callerFor("/", { ip: `198.51.100.${attempt}` }), { email: newCustomer.email, password: `wrong-${attempt}` }),
    ).toEqual({
      ok: false,
      errors: { form: "auth.errors.invalidCredentials" },
    });
  }
  const sixth = await logIn(services, callerFor("/", { ip: "198.51.100.99" }), { email: newCustomer.email, password: newCustomer.password });
  expect(sixth).toEqual({ ok: false, errors: { form: "auth.errors.tooManyAttempts" }, retryAfterSeconds: expect.any(Number) });
  // The answer says when to try again (the page sends it as Retry-After): within the minute of the window.
  expect(sixth.ok === false && sixth.retryAfterSeconds).toBeGreaterThan(0);
  expect(sixth.ok === false && sixth.retryAfterSeconds).toBeLessThanOrEqual(60);
  // Counted in the database, keyed by a hash of the address (never the address itself).
  const keys = await services.db.select({ key: rateLimits.key }).from(rateLimits).where(like(rateLimits.key, "login:account:%"));
  expect(keys).toHaveLength(1);
  expect(keys[0]!.key).not.toContain("maria");

  await services.db
    .update(rateLimits)
    .set({ lastRequest: Date.now() - 61_000 })
    .where(like(rateLimits.key, "login:account:%"));
  expect((await logIn(services, callerFor("/"), { email: newCustomer.email, password: newCustomer.password })).ok).toBe(true);
});

test("one address trying many accounts is stopped too", slow, async () => {
  const services = await openServices();
  for (let attempt = 1; attempt <= 3; attempt++) {
    await logIn(services, callerFor("/", { ip: "192.0.2.50" }), { email: `guess${attempt}@example.com`, password: "whatever-123" });
  }
  // Fast-forward to 30 attempts within the minute (each real attempt costs a password hash).
  await services.db.update(rateLimits).set({ count: 30 }).where(eq(rateLimits.key, "login:ip:192.0.2.50"));
  expect(await logIn(services, callerFor("/", { ip: "192.0.2.50" }), { email: "other@example.com", password: "whatever-123" })).toEqual({
    ok: false,
    errors: { form: "auth.errors.tooManyAttempts" },
    retryAfterSeconds: expect.any(Number),
  });
  expect(await logIn(services, callerFor("/", { ip: "192.0.2.51" }), { email: "other@example.com", password: "whatever-123" })).toEqual({
    ok: false,
    errors: { form: "auth.errors.invalidCredentials" },
  });
});

test("a password reset link is sent only to known addresses, works once and ends every session", slow, async () => {
  const services = await openServices();
  await registerCustomer(services, callerFor("/"), newCustomer);
  const login = await logIn(services, callerFor("/"), { email: newCustomer.email, password: newCustomer.password });
  const oldSession = new CookieJar().take(login.ok ? login.headers : null);

  expect(await requestPasswordReset(services, callerFor("/forgot-password"), { email: "nobody@example.com" })).toEqual({ ok: true });
  expect(await countMails(services.db, "nobody@example.com")).toBe(0);
  expect(await requestPasswordReset(services, callerFor("/en/forgot-password", { locale: "en" }), { email: newCustomer.email })).toEqual({
    ok: true,
  });
  const mail = await lastMail(services.db, newCustomer.email, "password-reset");
  expect(mail?.locale).toBe("en");
  expect(mail?.link).toMatch(new RegExp(`^${testPublicUrl}/en/reset-password\\?token=`));
  const token = new URL(mail!.link!).searchParams.get("token")!;

  const newPassword = "Pappa-Pronta-2031";
  expect(await resetPassword(services, callerFor("/reset-password"), { token, password: newPassword, passwordConfirm: newPassword })).toEqual({
    ok: true,
  });
  expect(await sessionUser(services, oldSession)).toBeNull();
  expect((await logIn(services, callerFor("/"), { email: newCustomer.email, password: newCustomer.password })).ok).toBe(false);
  expect((await logIn(services, callerFor("/"), { email: newCustomer.email, password: newPassword })).ok).toBe(true);
  expect(
    await resetPassword(services, callerFor("/reset-password"), { token, password: "Altra-Pappa-2032", passwordConfirm: "Altra-Pappa-2032" }),
  ).toEqual({
    ok: false,
    errors: { form: "auth.errors.resetLinkInvalid" },
  });
});

test("an expired reset link is refused", slow, async () => {
  const services = await openServices();
  await registerCustomer(services, callerFor("/"), newCustomer);
  await requestPasswordReset(services, callerFor("/"), { email: newCustomer.email });
  const token = new URL((await lastMail(services.db, newCustomer.email, "password-reset"))!.link!).searchParams.get("token")!;
  await services.db
    .update(verifications)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(like(verifications.identifier, "reset-password:%"));
  expect(await resetPassword(services, callerFor("/"), { token, password: "Pappa-Pronta-2031", passwordConfirm: "Pappa-Pronta-2031" })).toEqual({
    ok: false,
    errors: { form: "auth.errors.resetLinkInvalid" },
  });
});

test("reset requests are limited per account: the 4th within 15 minutes is refused", slow, async () => {
  const services = await openServices();
  for (let attempt = 1; attempt <= 3; attempt++) {
    expect(await requestPasswordReset(services, callerFor("/", { ip: `198.51.100.${attempt}` }), { email: "someone@example.com" })).toEqual({
      ok: true,
    });
  }
  expect(await requestPasswordReset(services, callerFor("/"), { email: "someone@example.com" })).toEqual({
    ok: false,
    errors: { form: "auth.errors.tooManyResetRequests" },
    retryAfterSeconds: expect.any(Number),
  });
});

test("a broken or forged verification link is refused", slow, async () => {
  const services = await openServices();
  expect(await verifyEmail(services, callerFor("/"), "not-a-token")).toEqual({ ok: false, error: "verifyLinkInvalid" });
  expect(await verifyEmail(services, callerFor("/"), "eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6ImFAYi5pdCJ9.c2lnbmF0dXJl")).toEqual({
    ok: false,
    error: "verifyLinkInvalid",
  });
});

test("logging out everywhere ends the sessions of every device", slow, async () => {
  const services = await openServices();
  await registerCustomer(services, callerFor("/"), newCustomer);
  const jars = [];
  for (let device = 0; device < 3; device++) {
    const login = await logIn(services, callerFor("/"), { email: newCustomer.email, password: newCustomer.password });
    jars.push(new CookieJar().take(login.ok ? login.headers : null));
  }
  const userId = await userIdOf(services.db, newCustomer.email);
  expect(await services.db.$count(sessions, eq(sessions.userId, userId!))).toBe(3);
  const headers = await logOutEverywhere(services, callerFor("/my-account", { jar: jars[0] }));
  expect(headers.getSetCookie().some((cookie) => /session_token=;/.test(cookie))).toBe(true);
  expect(await services.db.$count(sessions, eq(sessions.userId, userId!))).toBe(0);
  for (const jar of jars) expect(await sessionUser(services, jar)).toBeNull();
});

test("logging out forgets this browser's cart (a shared computer); the cart stays on the account for the next login", slow, async () => {
  const services = await openServices();
  await registerCustomer(services, callerFor("/"), newCustomer);
  const userId = (await userIdOf(services.db, newCustomer.email))!;
  const product = await createProduct(services.db);
  const added = await addToCart(services.db, { cartId: null, variantId: product.variantId, quantity: 2, personalisation: {} });
  if (!added.ok) throw new Error(added.error);
  const jar = new CookieJar().take(new Headers({ "Set-Cookie": readCartRequest(requestFor("/"), services).cookieHeaders.cart(added.cartId) }));
  const login = await logIn(services, callerFor("/", { jar }), { email: newCustomer.email, password: newCustomer.password });
  jar.take(login.ok ? login.headers : null);
  jar.take(await mergeCartIntoAccount(services, requestFor("/", { jar }), userId));
  expect(await findCartIdOfUser(services.db, userId)).toBe(added.cartId);

  jar.take(await logOut(services, callerFor("/", { jar })));
  expect(jar.has("session_token")).toBe(false);
  expect(readCartRequest(requestFor("/", { jar }), services).cartId).toBeNull();

  const again = await logIn(services, callerFor("/", { jar }), { email: newCustomer.email, password: newCustomer.password });
  jar.take(again.ok ? again.headers : null);
  jar.take(await mergeCartIntoAccount(services, requestFor("/", { jar }), userId));
  expect(readCartRequest(requestFor("/", { jar }), services).cartId).toBe(added.cartId);
});

test("API clients get a bearer token from the sign-in endpoint, and it is limited the same way", slow, async () => {
  const services = await openServices();
  await registerCustomer(services, callerFor("/"), newCustomer);
  const signIn = (password: string) =>
    services.auth.handler(
      new Request(`${testPublicUrl}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: testPublicUrl, [clientIpHeader]: "203.0.113.80" },
        body: JSON.stringify({ email: newCustomer.email, password }),
      }),
    );
  const response = await signIn(newCustomer.password);
  expect(response.status).toBe(200);
  const token = response.headers.get("set-auth-token");
  expect(token).toBeTruthy();
  const session = await services.auth.api.getSession({ headers: new Headers({ Authorization: `Bearer ${token}` }) });
  expect(session?.user.email).toBe(newCustomer.email);
  const forged = await services.auth.api.getSession({ headers: new Headers({ Authorization: `Bearer ${token!.split(".")[0]}.forged` }) });
  expect(forged).toBeNull();

  const statuses = [];
  for (let attempt = 0; attempt < 6; attempt++) statuses.push((await signIn(`wrong-${attempt}`)).status);
  expect(statuses.slice(0, 5).every((status) => status === 401 || status === 429)).toBe(true);
  expect(statuses[5]).toBe(429);
});

test("the same requests work through the page helpers' cookie jar", () => {
  const jar = new CookieJar().take(
    new Headers([
      ["Set-Cookie", "a=1; Path=/"],
      ["Set-Cookie", "b=2; Path=/"],
      ["Set-Cookie", "a=; Max-Age=0"],
    ]),
  );
  expect(jar.header()).toBe("b=2");
  expect(requestFor("/x", { jar, form: { a: "1" } }).headers.get("Cookie")).toBe("b=2");
});
