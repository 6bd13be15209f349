/**
 * Whether an address has an account must not show in how long a sign-in takes: every failed sign-in,
 * whatever the address, derives exactly one key (scrypt) as a sign-in of a real account does. Counted,
 * not timed: a timing test on a shared machine would be flaky (figures in decision 0084).
 */
import { expect, onTestFinished, test } from "vitest";
import { createTestDb } from "#tests/db.ts";
import { callerFor, testEnv, testPublicUrl } from "#tests/fixtures/accounts.fixtures.ts";
import { users } from "#server/db/schema.ts";
import { createAuth, type PasswordHashing } from "./auth";
import { logIn, registerCustomer } from "./auth-flows.service";
import { hashPassword, verifyPassword } from "better-auth/crypto";

const password = "Tr3no-Blu-Vesuvio";

test(
  "a wrong password, an unknown address and an account without a password each cost one key derivation, as a right password does",
  { timeout: 60_000 },
  async () => {
    const handle = await createTestDb();
    onTestFinished(() => handle.close());
    let derivations = 0;
    const counted: PasswordHashing = {
      hash: (value) => {
        derivations += 1;
        return hashPassword(value);
      },
      verify: (args) => {
        derivations += 1;
        return verifyPassword(args);
      },
    };
    const env = testEnv();
    const services = {
      db: handle.db,
      env,
      publicUrl: testPublicUrl,
      auth: createAuth({ db: handle.db, env, publicUrl: testPublicUrl, passwordHashing: counted }),
    };
    await registerCustomer(services, callerFor("/"), { name: "Anna", email: "anna@example.it", password, passwordConfirm: password, privacy: "on" });
    // An account made through the identity provider has no password of its own.
    await handle.db.insert(users).values({ id: "only-oidc", name: "Bruno", email: "bruno@example.it", emailVerified: true });

    let attempt = 0;
    const signIn = async (email: string, typed: string) => {
      attempt += 1;
      const before = derivations;
      // Each from its own address: the login limits never step in.
      const result = await logIn(services, callerFor("/", { ip: `198.51.100.${attempt}` }), { email, password: typed });
      return { derivations: derivations - before, result: result.ok ? "signed in" : result.errors };
    };

    const wrongPassword = await signIn("anna@example.it", "Sbagliata-123!");
    expect(wrongPassword.derivations).toBe(1);
    expect(await signIn("nessuno@example.it", "Sbagliata-123!")).toEqual(wrongPassword);
    expect(await signIn("bruno@example.it", "Sbagliata-123!")).toEqual(wrongPassword);
    expect(await signIn("anna@example.it", password)).toEqual({ derivations: 1, result: "signed in" });
  },
);
