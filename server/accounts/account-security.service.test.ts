import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import {
  accounts,
  addresses,
  auditLog,
  categories,
  giftLists,
  orders,
  outboxEmails,
  products,
  sessions,
  users,
  wishlistItems,
} from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { callerFor, insertOrder, lastMail, signedInCustomerOn } from "#tests/fixtures/accounts.fixtures.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { exportAccountData } from "./account-data.service";
import { changeEmail, changePassword, deleteAccount } from "./account-security.service";
import { addAddress } from "./address.service";
import { logIn, registerCustomer, verifyEmail } from "./auth-flows.service";
import type { SessionUser } from "./session-user";

/** Each test hashes several passwords (scrypt): slow on a busy 2-core machine. */
const slow = { timeout: 60_000 };

const password = "Tr3no-Blu-Vesuvio";

/** A registered, verified and signed-in customer. */
async function openWithCustomer(email = "maria@example.com") {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const { services, jar, userId } = await signedInCustomerOn(handle.db, { email, password });
  const user: SessionUser = { id: userId, name: "Maria Rossi", email, role: "customer", emailVerified: true };
  return { services, jar, user, caller: () => callerFor("/my-account", { jar }) };
}

test("changing the e-mail sends a link to the new address; the address changes only when it is followed", slow, async () => {
  const { services, user, caller, jar } = await openWithCustomer();
  expect(await changeEmail(services, caller(), user, { newEmail: "Maria.Nuova@Example.com" })).toEqual({ ok: true });
  const [before] = await services.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
  expect(before?.email).toBe("maria@example.com");
  const mail = await lastMail(services.db, "maria.nuova@example.com", "verify-email");
  expect(mail?.link).toMatch(/\/verify-email\?token=/);
  const verified = await verifyEmail(services, callerFor("/verify-email", { jar }), new URL(mail!.link!).searchParams.get("token"));
  expect(verified.ok).toBe(true);
  const [after] = await services.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
  expect(after?.email).toBe("maria.nuova@example.com");
});

test("changing to an address that has another account answers the same and sends nothing there", slow, async () => {
  const { services, user, caller } = await openWithCustomer();
  await registerCustomer(services, callerFor("/"), {
    name: "Altra Persona",
    email: "altra@example.com",
    password,
    passwordConfirm: password,
    privacy: "on",
  });
  const mailsBefore = await services.db.$count(outboxEmails);
  expect(await changeEmail(services, caller(), user, { newEmail: "altra@example.com" })).toEqual({ ok: true });
  expect(await services.db.$count(outboxEmails)).toBe(mailsBefore);
  expect(await changeEmail(services, caller(), user, { newEmail: "maria@example.com" })).toEqual({
    ok: false,
    errors: { newEmail: "auth.errors.sameEmail" },
  });
  expect(await changeEmail(services, caller(), user, { newEmail: "<b>@x" })).toEqual({ ok: false, errors: { newEmail: "auth.errors.emailInvalid" } });
});

test("changing the password needs the current one, refuses weak ones and signs out the other devices", slow, async () => {
  const { services, user, caller, jar } = await openWithCustomer();
  const other = await logIn(services, callerFor("/"), { email: user.email, password });
  const otherDevice = new CookieJar().take(other.ok ? other.headers : null);
  const newPassword = "Pappa-Pronta-2031";
  expect(
    await changePassword(services, caller(), user, { currentPassword: "wrong-password", password: newPassword, passwordConfirm: newPassword }),
  ).toEqual({
    ok: false,
    errors: { currentPassword: "auth.errors.currentPasswordWrong" },
  });
  expect(
    await changePassword(services, caller(), user, { currentPassword: password, password: "qwertyuiop", passwordConfirm: "qwertyuiop" }),
  ).toEqual({
    ok: false,
    errors: { password: "auth.errors.passwordTooCommon" },
  });
  const changed = await changePassword(services, caller(), user, { currentPassword: password, password: newPassword, passwordConfirm: newPassword });
  expect(changed.ok).toBe(true);
  jar.take(changed.ok ? changed.headers : null);
  expect(await services.auth.api.getSession({ headers: new Headers({ Cookie: jar.header() }) })).not.toBeNull();
  expect(await services.auth.api.getSession({ headers: new Headers({ Cookie: otherDevice.header() }) })).toBeNull();
  expect((await logIn(services, callerFor("/"), { email: user.email, password: newPassword })).ok).toBe(true);
});

test("deleting the account needs the password; it removes the person's data and keeps the orders without them", slow, async () => {
  const { services, user, caller } = await openWithCustomer();
  const { db } = services;
  await addAddress(db, user.id, {
    firstName: "Maria",
    lastName: "Rossi",
    street: "Via Roma",
    houseNumber: "1",
    postcode: "80100",
    city: "Napoli",
    province: "NA",
  });
  const [category] = await db.insert(categories).values({ slug: "test", nameIt: "Test", nameEn: "Test" }).returning();
  const [product] = await db
    .insert(products)
    .values({ sku: "T-1", nameIt: "Culla", nameEn: "Crib", priceCents: 10_000, primaryCategoryId: category!.id })
    .returning();
  await db.insert(wishlistItems).values({ userId: user.id, productId: product!.id });
  await db
    .insert(giftLists)
    .values({ code: "ABCDEFGH", ownerUserId: user.id, title: "Lista di Leo", eventDate: "2026-09-01", celebratedNames: "Leo" });
  const order = await insertOrder(db, user.id);

  const exported = await exportAccountData(db, user.id);
  expect(exported).toMatchObject({
    account: { email: user.email, name: "Maria Rossi", signsInWithPassword: true },
    addresses: [expect.objectContaining({ city: "Napoli" })],
    orders: [expect.objectContaining({ number: order.number })],
    giftLists: [expect.objectContaining({ code: "ABCDEFGH", items: [] })],
    wishlist: [expect.objectContaining({ name: "Culla" })],
  });
  const [credential] = await db.select({ hash: accounts.password }).from(accounts).where(eq(accounts.userId, user.id));
  expect(JSON.stringify(exported)).not.toContain(credential!.hash!);
  expect(JSON.stringify(exported)).not.toMatch(/"(password|token|accessToken|refreshToken|idToken)":/);

  expect(await deleteAccount(services, caller(), { ...user, hasPassword: true }, {})).toEqual({
    ok: false,
    errors: { password: "auth.errors.currentPasswordRequired" },
  });
  expect(await deleteAccount(services, caller(), { ...user, hasPassword: true }, { password: "wrong-password" })).toEqual({
    ok: false,
    errors: { password: "auth.errors.currentPasswordWrong" },
  });
  expect(await db.$count(users, eq(users.id, user.id))).toBe(1);

  const deleted = await deleteAccount(services, caller(), { ...user, hasPassword: true }, { password });
  expect(deleted.ok).toBe(true);
  expect(deleted.ok && deleted.headers.getSetCookie().some((cookie) => /session_token=;/.test(cookie))).toBe(true);
  expect(await db.$count(users, eq(users.id, user.id))).toBe(0);
  expect(await db.$count(sessions, eq(sessions.userId, user.id))).toBe(0);
  expect(await db.$count(addresses)).toBe(0);
  expect(await db.$count(wishlistItems)).toBe(0);
  expect(await db.$count(giftLists)).toBe(0);
  const [kept] = await db.select({ userId: orders.userId, email: orders.email }).from(orders).where(eq(orders.id, order.id));
  expect(kept).toEqual({ userId: null, email: "cliente@example.com" });
  expect(await db.$count(auditLog, eq(auditLog.action, "account.deleted"))).toBe(1);
  expect(await exportAccountData(db, user.id)).toBeNull();
});
