import { expect, test } from "vitest";
import { adviceOfErrors, mayResend, outcomeOfNotification, resendBy, transmitBy } from "./sdi";

test("RC delivers a file, MC leaves it valid but undelivered, NS rejects it; public administrations' outcomes settle nothing", () => {
  expect(["RC", "MC", "NS", "NE", "DT", "MT"].map(outcomeOfNotification)).toEqual(["delivered", "not_delivered", "rejected", null, null, null]);
});

test("each rejection code says what to do, once per kind of advice; an unknown code goes to support", () => {
  const errors = ["00305", "00311", "00312", "00404", "00301", "00423"].map((code) => ({ code, description: "" }));
  expect(adviceOfErrors(errors)).toEqual(["buyer-vat-number", "recipient-code", "duplicate", "seller-data", "support"]);
});

test("an invoice is due 12 days after the operation; a rejected file may go again under its number for 5 days, across month ends", () => {
  expect(transmitBy("2026-11-26")).toBe("2026-12-08");
  expect(resendBy("2026-12-29")).toBe("2027-01-03");
  expect(mayResend("rejected", "2026-11-26", "2026-12-01")).toBe(true);
  expect(mayResend("rejected", "2026-11-26", "2026-12-02")).toBe(false);
  expect(mayResend("refused", null, "2027-06-01")).toBe(true);
  expect(mayResend("delivered", "2026-11-26", "2026-11-26")).toBe(false);
});
