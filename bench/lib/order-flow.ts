/**
 * The orders of bench/order-flow.mjs (TypeScript, run with `node --import tsx`), in a process of their own: one
 * guest order a second on `databaseUrl` (add to cart, then placeOrder's whole transaction), each for one unit of a
 * variant with stock to spare, for `seconds` seconds. Prints one JSON line: { placed, refused }.
 *
 *   node --import tsx bench/lib/order-flow.ts <database url> <seconds>
 */
import { and, eq, gte, sql } from "drizzle-orm";
import { addToCart } from "#server/cart/cart.service.ts";
import { placeOrder } from "#server/checkout/checkout.service.ts";
import { connectPostgres } from "#server/db/client.ts";
import { productVariants } from "#server/db/schema.ts";
import { checkoutInput, testPublicUrl, testSecret } from "#tests/fixtures/checkout.fixtures.ts";

const [databaseUrl, secondsArgument] = process.argv.slice(2);
if (!databaseUrl || !secondsArgument) throw new Error("usage: order-flow.ts <database url> <seconds>");
const seconds = Number(secondsArgument);

const handle = connectPostgres(databaseUrl, 2);
try {
  // Variants whose stock an order of one leaves above zero (each is ordered once): no availability changes.
  const rows = await handle.db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(and(gte(productVariants.stock, 2), eq(productVariants.isPreorder, false)))
    .orderBy(sql`(${productVariants.id} * 7919) % 1009`);
  const variantIds = rows.map((row) => row.id);
  if (variantIds.length === 0) throw new Error("no variant with stock to spare");
  let placed = 0;
  const refused: Record<string, number> = {};
  const startedAt = Date.now();
  for (let second = 0; second < seconds; second += 1) {
    const variantId = variantIds[second % variantIds.length]!;
    const added = await addToCart(handle.db, { cartId: null, variantId, quantity: 1, personalisation: {} });
    const result = added.ok
      ? await placeOrder(handle.db, {
          cartId: added.cartId,
          userId: null,
          locale: "it",
          input: checkoutInput({ paymentMethod: "bank_transfer" }),
          now: new Date(),
          publicUrl: testPublicUrl,
          secret: testSecret,
        })
      : added;
    if (result.ok) placed += 1;
    else refused[result.error] = (refused[result.error] ?? 0) + 1;
    const nextAt = startedAt + (second + 1) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextAt - Date.now())));
  }
  process.stdout.write(`${JSON.stringify({ placed, refused })}\n`);
} finally {
  await handle.close();
}
