import { expect, test } from "vitest";
import { findPasswordProblem } from "./passwords";

test("passwords shorter than 8 or longer than 128 characters are refused", async () => {
  expect(await findPasswordProblem("Ab3$x")).toBe("passwordTooShort");
  expect(await findPasswordProblem("")).toBe("passwordTooShort");
  expect(await findPasswordProblem("x".repeat(129))).toBe("passwordTooLong");
});

test("common and breached passwords are refused, also in Italian", async () => {
  for (const password of ["password", "12345678", "qwertyuiop", "password1", "iloveyou1", "P4ssw0rd123", "forzanapoli", "napoli2024"]) {
    expect(await findPasswordProblem(password), password).toBe("passwordTooCommon");
  }
});

test("a password made of the person's own name or e-mail is refused with its own reason", async () => {
  expect(await findPasswordProblem("mario.rossi@example.com", ["Mario Rossi", "mario.rossi@example.com"])).toBe("passwordLikePersonal");
  expect(await findPasswordProblem("rossimario", ["Mario Rossi"])).toBe("passwordLikePersonal");
});

test("unpredictable passwords and passphrases pass", async () => {
  for (const password of ["Tr3no-Blu-Vesuvio", "correct horse battery", "xkq9-TRd2", "girasole24"]) {
    expect(await findPasswordProblem(password, ["Maria Rossi", "maria@example.com"]), password).toBeNull();
  }
});
