/**
 * One "app process" of the checkout concurrency test (server/checkout/checkout.concurrency.test.ts):
 * its own connection pool, one placeOrder per cart id given, all fired at once when the test says "go"
 * on stdin. Prints "ready" once connected, then one JSON line with each outcome ("ok", the error code,
 * "discount-code:<why>", "gift-card:<why>" or "loyalty-points:<why>"). Started by tests/checkout-workers.ts.
 *
 *   node --import tsx tests/checkout-worker.ts <database url> <cart ids as JSON> [<CheckoutWorkerOptions as JSON>]
 */
import readline from "node:readline";
import { checkoutInput, testPublicUrl, testSecret } from "#tests/fixtures/checkout.fixtures.ts";
import { placeOrder } from "#server/checkout/checkout.service.ts";
import { connectPostgres } from "#server/db/client.ts";
import type { CheckoutWorkerOptions } from "./checkout-workers";

const [url, cartIdsJson, optionsJson] = process.argv.slice(2);
if (!url || !cartIdsJson) throw new Error("usage: checkout-worker.ts <database url> <cart ids as JSON>");
const cartIds = JSON.parse(cartIdsJson) as string[];
const options = JSON.parse(optionsJson ?? "{}") as CheckoutWorkerOptions;
const handle = connectPostgres(url, 10);
// Open the pool's connections before the start, so the race is between checkouts, not connection set-ups.
// On a busy machine a connection can take longer than the pool's 5 s connect timeout: try again.
for (let attempt = 1; ; attempt += 1) {
  const opened = await Promise.allSettled(Array.from({ length: 10 }, () => handle.ping()));
  if (opened.every((result) => result.status === "fulfilled")) break;
  if (attempt === 5) throw new Error("checkout worker: could not open its connections");
}
const inputs = cartIds.map((cartId) =>
  checkoutInput({
    paymentMethod: "bank_transfer",
    ...(options.discountCode ? { discountCode: options.discountCode } : {}),
    ...(options.giftCardCode ? { giftCardCode: options.giftCardCode } : {}),
    ...(options.email === "own" ? { email: `buyer-${cartId}@example.it` } : {}),
    ...(options.loyaltyPoints ? { loyaltyPoints: String(options.loyaltyPoints) } : {}),
  }),
);
process.stdout.write("ready\n");

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) if (line === "go") break;
lines.close();

const outcomes = await Promise.all(
  cartIds.map(async (cartId, index) => {
    const result = await placeOrder(handle.db, {
      cartId,
      userId: options.userId ?? null,
      locale: "it",
      input: inputs[index]!,
      now: new Date(),
      publicUrl: testPublicUrl,
      secret: testSecret,
    });
    if (result.ok) return "ok";
    if (result.error === "gift-card") return `gift-card:${result.giftCardError}`;
    if (result.error === "loyalty-points") return `loyalty-points:${result.loyaltyError}`;
    return result.error === "discount-code" ? `discount-code:${result.discountError}` : result.error;
  }),
);
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
await handle.close();
