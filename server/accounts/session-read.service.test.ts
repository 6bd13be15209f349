import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { sessions } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { signedInCustomerOn } from "#tests/fixtures/accounts.fixtures.ts";
import { readSessionUserQuickly } from "./session-read";
import { readSessionUser } from "./session-user";

/** Each test hashes several passwords (scrypt): slow on a busy 2-core machine. */
const slow = { timeout: 60_000 };

const email = "maria@example.com";
const password = "Tr3no-Blu-Vesuvio";
const day = 86_400_000;

/** A registered, verified and signed-in customer: her browser's Cookie header and her session's row. */
async function openWithCustomer() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const { services, jar, userId } = await signedInCustomerOn(handle.db, { email, password });
  // Her browser's session (following the link signed her in once already): the token its cookie signs.
  const sessionCookie = jar
    .header()
    .split("; ")
    .find((pair) => pair.startsWith("better-auth.session_token="))!;
  const signed = decodeURIComponent(sessionCookie.slice(sessionCookie.indexOf("=") + 1));
  const token = signed.slice(0, signed.lastIndexOf("."));
  const session = async () => (await services.db.select().from(sessions).where(eq(sessions.token, token)))[0];
  const both = async (cookie: string) => {
    const headers = new Headers({ Cookie: cookie });
    return { quick: await readSessionUserQuickly(services, headers), betterAuth: await readSessionUser(services.auth, headers) };
  };
  return { services, cookie: jar.header(), sessionCookie, userId, token, session, both };
}

test("her session cookie names her as better-auth does, and reading it writes nothing", slow, async () => {
  const { cookie, userId, session, both } = await openWithCustomer();
  const before = await session();
  const read = await both(`${cookie}; js=1`);
  expect(read.quick).toEqual({ id: userId, name: "Maria Rossi", email, role: "customer", emailVerified: true });
  expect(read.quick).toEqual(read.betterAuth);
  expect(await session()).toEqual(before);
});

test("a cookie with a changed signature or token, an unknown one, or none names no one", slow, async () => {
  const { sessionCookie, token, both } = await openWithCustomer();
  const name = sessionCookie.slice(0, sessionCookie.indexOf("="));
  const signature = decodeURIComponent(sessionCookie).slice(decodeURIComponent(sessionCookie).lastIndexOf(".") + 1);
  const forged = [
    `${name}=${encodeURIComponent(`${token}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`)}`,
    // Another last character: "x" alone left a token ending in "x" unchanged (one run in 62 failed).
    `${name}=${encodeURIComponent(`${token.slice(0, -1)}${token.endsWith("x") ? "y" : "x"}.${signature}`)}`,
    `${name}=${encodeURIComponent(`unknowntoken.${signature}`)}`,
    `${name}=`,
    "js=1",
    "",
  ];
  for (const header of forged) expect(await both(header), header).toEqual({ quick: null, betterAuth: null });
});

test("an expired session names no one and is ended; one due for its refresh names her and is moved on", slow, async () => {
  const { services, cookie, userId, token, session, both } = await openWithCustomer();
  await services.db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() + day) })
    .where(eq(sessions.token, token));
  expect((await readSessionUserQuickly(services, new Headers({ Cookie: cookie })))?.id).toBe(userId);
  // better-auth's rule: a week's session is moved on once a day has passed since it was last.
  expect((await session())!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * day);

  await services.db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(sessions.token, token));
  expect(await both(cookie)).toEqual({ quick: null, betterAuth: null });
  expect(await session()).toBeUndefined();
});
