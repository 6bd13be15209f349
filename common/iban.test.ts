import { expect, test } from "vitest";
import { isValidIban, normaliseIban } from "./iban";

test("an IBAN passes with its check digits, however it is typed", () => {
  expect(isValidIban("IT60X0542811101000000123456")).toBe(true);
  expect(isValidIban("it60 x054 2811 1010 0000 0123 456")).toBe(true);
  expect(isValidIban("DE89370400440532013000")).toBe(true);
  expect(normaliseIban("it60 x054 2811 1010 0000 0123 456")).toBe("IT60X0542811101000000123456");
});

test("a wrong check digit, a short Italian IBAN or letters where digits go fail", () => {
  expect(isValidIban("IT61X0542811101000000123456")).toBe(false);
  expect(isValidIban("IT60X054281110100000012345")).toBe(false);
  expect(isValidIban("ITXXX0542811101000000123456")).toBe(false);
  expect(isValidIban("")).toBe(false);
});
