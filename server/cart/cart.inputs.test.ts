import { expect, test } from "vitest";
import { parseCartForm } from "./cart.inputs.ts";

const form = (fields: Record<string, string> | [string, string][]) => new URLSearchParams(fields);

test("an add takes variantId, quantity (1 when absent) and personalisation.N fields", () => {
  expect(parseCartForm(form({ intent: "add", variantId: "45" }))).toEqual({
    ok: true,
    input: { intent: "add", variantId: 45, quantity: 1, personalisation: {} },
    redirectTo: null,
  });
  expect(
    parseCartForm(
      form({
        intent: "add",
        variantId: "144",
        quantity: "3",
        "personalisation.0": "Luca",
        "personalisation.1": "12 maggio",
        redirectTo: "/product/111",
      }),
    ),
  ).toEqual({
    ok: true,
    input: { intent: "add", variantId: 144, quantity: 3, personalisation: { 0: "Luca", 1: "12 maggio" } },
    redirectTo: "/product/111",
  });
});

test("quantities 0, -1, 1.5, words and empty are refused; 10^9 goes on to the stock check", () => {
  for (const quantity of ["0", "-1", "1.5", "abc", "", "1e3", "99999999999"]) {
    expect(parseCartForm(form({ intent: "add", variantId: "45", quantity }))).toMatchObject({ ok: false, error: "quantity-invalid" });
  }
  expect(parseCartForm(form({ intent: "add", variantId: "45", quantity: "1000000000" }))).toMatchObject({
    ok: true,
    input: { quantity: 1_000_000_000 },
  });
});

test("a missing or malformed variant id is an unknown variant", () => {
  for (const variantId of ["", "0", "-3", "abc", "1.5", "99999999999"]) {
    expect(parseCartForm(form({ intent: "add", variantId }))).toMatchObject({ ok: false, error: "variant-not-found" });
  }
  expect(parseCartForm(form({ intent: "add" }))).toMatchObject({ ok: false, error: "variant-not-found" });
});

test("unknown personalisation fields and 10,000-character texts are refused", () => {
  expect(parseCartForm(form({ intent: "add", variantId: "1", "personalisation.name": "x" }))).toMatchObject({
    ok: false,
    error: "personalisation-unknown-field",
  });
  expect(parseCartForm(form({ intent: "add", variantId: "1", personalisation: "x" }))).toMatchObject({
    ok: false,
    error: "personalisation-unknown-field",
  });
  expect(parseCartForm(form({ intent: "add", variantId: "1", "personalisation.0": "x".repeat(10_000) }))).toMatchObject({
    ok: false,
    error: "personalisation-too-long",
  });
  expect(parseCartForm(form({ intent: "remove", lineId: crypto.randomUUID(), "personalisation.0": "x" }))).toMatchObject({
    ok: false,
    error: "personalisation-unknown-field",
  });
});

test("line intents need a line id; clear and share need nothing; anything else is a bad request", () => {
  const lineId = crypto.randomUUID();
  for (const intent of ["increase", "decrease", "remove"]) {
    expect(parseCartForm(form({ intent, lineId }))).toEqual({ ok: true, input: { intent, lineId }, redirectTo: null });
    expect(parseCartForm(form({ intent, lineId: "42" }))).toMatchObject({ ok: false, error: "line-not-found" });
  }
  expect(parseCartForm(form({ intent: "clear" }))).toMatchObject({ ok: true, input: { intent: "clear" } });
  expect(parseCartForm(form({ intent: "share" }))).toMatchObject({ ok: true, input: { intent: "share" } });
  expect(parseCartForm(form({ intent: "explode" }))).toMatchObject({ ok: false, error: "invalid-request" });
  expect(parseCartForm(form({}))).toMatchObject({ ok: false, error: "invalid-request" });
  expect(
    parseCartForm(
      form([
        ["intent", "add"],
        ["variantId", "1"],
        ["variantId", "2"],
      ]),
    ),
  ).toMatchObject({ ok: false, error: "invalid-request" });
});

test("redirectTo must be a same-site path (server/http/same-site-path.ts)", () => {
  expect(parseCartForm(form({ intent: "clear", redirectTo: "/en/cart" }))).toMatchObject({ ok: true, redirectTo: "/en/cart" });
  expect(parseCartForm(form({ intent: "clear", redirectTo: "//evil.example" }))).toMatchObject({ ok: true, redirectTo: null });
});
