import { expect, test } from "vitest";
import { getTranslator } from "#server/i18n/translator.ts";
import { LoginInput, RegisterInput, pathAfterLogin } from "./auth.inputs";
import { badTextValues } from "#tests/fixtures/accounts.fixtures.ts";
import { parseWith } from "./text-rules";

test("after login only this shop's own paths are followed", () => {
  expect(pathAfterLogin("/my-account", "/")).toBe("/my-account");
  expect(pathAfterLogin("/en/crea-lista-nascita?tab=2#x", "/")).toBe("/en/crea-lista-nascita?tab=2#x");
  for (const bad of [
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "javascript:alert(1)",
    "evil",
    "",
    null,
    undefined,
    42,
    "/\u0000x",
    `/${"a".repeat(2000)}`,
  ]) {
    expect(pathAfterLogin(bad, "/fallback"), String(bad)).toBe("/fallback");
  }
  // Never back to the login or logout pages themselves.
  expect(pathAfterLogin("/login-register?x=1", "/my-account")).toBe("/my-account");
  expect(pathAfterLogin("/en/logout", "/en/my-account")).toBe("/en/my-account");
});

test("registration: every field's bad input gets its own message, in both languages", () => {
  const valid = {
    name: "Maria D'Amico",
    email: "maria@example.com",
    password: "Tr3no-Blu-Vesuvio",
    passwordConfirm: "Tr3no-Blu-Vesuvio",
    privacy: "on",
  };
  expect(parseWith(RegisterInput, valid).ok).toBe(true);
  for (const field of ["name", "email"] as const) {
    for (const [kind, value] of Object.entries(badTextValues)) {
      const parsed = parseWith(RegisterInput, { ...valid, [field]: value });
      expect(parsed.ok, `${field} ${kind}`).toBe(false);
      const message = parsed.ok ? "" : parsed.errors[field]!;
      expect(message, `${field} ${kind}`).toMatch(/^auth\.errors\./);
      for (const locale of ["it", "en"] as const) expect(getTranslator(locale)(message)).not.toBe(message);
    }
  }
  expect(parseWith(RegisterInput, { ...valid, password: "a".repeat(10_000), passwordConfirm: "a".repeat(10_000) })).toMatchObject({
    ok: false,
    errors: { password: "auth.errors.passwordTooLong" },
  });
  expect(parseWith(RegisterInput, { ...valid, password: "Tr3no\u0000Blu-Vesuvio", passwordConfirm: "Tr3no\u0000Blu-Vesuvio" })).toMatchObject({
    ok: false,
    errors: { password: "auth.errors.invalidCharacters" },
  });
  expect(parseWith(RegisterInput, { ...valid, privacy: "off" })).toMatchObject({ ok: false, errors: { privacy: "auth.errors.privacyRequired" } });
  // HTML or SQL in a password is just a password: it is hashed, never shown.
  expect(parseWith(RegisterInput, { ...valid, password: badTextValues.sql, passwordConfirm: badTextValues.sql }).ok).toBe(true);
});

test("login: an empty form names both fields; addresses are compared in lower case", () => {
  expect(parseWith(LoginInput, {})).toEqual({ ok: false, errors: { email: "auth.errors.emailRequired", password: "auth.errors.passwordRequired" } });
  expect(parseWith(LoginInput, { email: " Maria@Example.COM ", password: "x" })).toEqual({
    ok: true,
    value: { email: "maria@example.com", password: "x" },
  });
});
