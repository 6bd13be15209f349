import { expect, test } from "vitest";
import { readEnv } from "#server/env.ts";
import { shopNowOf } from "./shop-clock";

const moved = "2027-01-15T09:30:00.000Z";
const request = (clock?: string) => new Request("http://127.0.0.1/ordine/x/recesso", { headers: clock ? { "x-test-clock": clock } : {} });

test("journeys move the shop's one clock with x-test-clock; an unreadable value is the real clock", () => {
  const services = { env: readEnv({ TEST_CLOCK_HEADER: "true" }) };
  expect(shopNowOf(services, request(moved)).toISOString()).toBe(moved);
  const before = Date.now();
  expect(shopNowOf(services, request("next tuesday")).getTime()).toBeGreaterThanOrEqual(before);
  expect(shopNowOf(services, request()).getTime()).toBeGreaterThanOrEqual(before);
});

test("without TEST_CLOCK_HEADER the header is ignored: the real clock decides periods, codes and offers", () => {
  const before = Date.now();
  const now = shopNowOf({ env: readEnv({}) }, request(moved));
  expect(now.getTime()).toBeGreaterThanOrEqual(before);
  expect(now.getTime()).toBeLessThan(before + 60_000);
});
