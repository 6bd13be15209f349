import { expect, test } from "vitest";
import { formatLogLine } from "./log";

test("a log event as a person reads it: time, message and fields; the level only when not info", () => {
  const info = JSON.stringify({ level: 30, time: "2026-11-28T21:04:05.123Z", service: "shop", msg: "database ready", ms: 812 });
  expect(formatLogLine(info)).toBe("21:04:05 database ready ms=812\n");
  const warn = JSON.stringify({ level: 40, time: "2026-11-28T21:04:06.000Z", service: "shop", msg: "slow render", path: "/shop", ids: [1, 2] });
  expect(formatLogLine(warn)).toBe("21:04:06 warning: slow render path=/shop ids=[1,2]\n");
});

test("an error shows its stack under the line", () => {
  const line = JSON.stringify({
    level: 50,
    time: "2026-11-28T21:04:07.000Z",
    msg: "mail failed",
    err: { message: "boom", stack: "Error: boom\n    at send" },
  });
  expect(formatLogLine(line)).toBe("21:04:07 error: mail failed\nError: boom\n    at send\n");
});
