import { expect, test } from "vitest";
import { describeSendError, isPermanentFailure, MailSendError, maxRetryDelayMs, retryDelayMs } from "./delivery";

const minute = 60_000;

test("retries wait 1, 2, 4, 8 ... minutes", () => {
  expect([1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([1, 2, 4, 8, 16].map((n) => n * minute));
});

test("the wait never grows past 6 hours, however many attempts", () => {
  expect(retryDelayMs(9)).toBe(256 * minute);
  expect(retryDelayMs(10)).toBe(maxRetryDelayMs);
  expect(retryDelayMs(10_000)).toBe(6 * 60 * minute);
  expect(retryDelayMs(0)).toBe(minute);
});

test("only a mail error marked permanent counts as permanent", () => {
  expect(isPermanentFailure(new MailSendError("550 no such user", { permanent: true }))).toBe(true);
  expect(isPermanentFailure(new MailSendError("ECONNREFUSED", { permanent: false }))).toBe(false);
  expect(isPermanentFailure(Object.assign(new Error("x"), { permanent: true }))).toBe(false);
});

test("the stored error is one bounded line", () => {
  expect(describeSendError(new Error("Can't send mail:\n 550  no such user"))).toBe("Can't send mail: 550 no such user");
  expect(describeSendError("x".repeat(2000))).toHaveLength(500);
  expect(describeSendError(new Error(""))).toBe("unknown error");
});
