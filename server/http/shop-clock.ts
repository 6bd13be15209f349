import type { ShopServices } from "#server/shop-services.ts";

const testClockHeader = "x-test-clock";

/**
 * The shop's "now" for a request: the real clock, except in journeys started with TEST_CLOCK_HEADER,
 * where the `x-test-clock` header (an ISO instant) moves it (env.ts refuses that on a public address).
 */
export function shopNowOf(services: Pick<ShopServices, "env">, request: Request): Date {
  if (!services.env.TEST_CLOCK_HEADER) return new Date();
  const moved = new Date(request.headers.get(testClockHeader) ?? "");
  return Number.isNaN(moved.getTime()) ? new Date() : moved;
}
