/**
 * What the checkout and order tests build on: a valid checkout form and a cart holding given lines.
 * Test-only (also used by the concurrency worker in tests/).
 */
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { addToCart } from "#server/cart/cart.service.ts";
import type { Db } from "#server/db/client.ts";
import { productVariants } from "#server/db/schema.ts";
import { parseCheckoutForm, type CheckoutInput } from "./checkout.inputs";
import { placeOrder, type PlaceOrderArgs } from "./checkout.service";

export const testSecret = "order-links-secret-for-the-tests-only";
export const testPublicUrl = "http://shop.test";

/** The form a guest sends for standard delivery to Milan, paying by card, with `fields` changed. */
export function checkoutForm(fields: Record<string, string> = {}): Record<string, string> {
  return {
    idempotencyKey: crypto.randomUUID(),
    firstName: "Maria",
    lastName: "Rossi",
    email: "maria.rossi@example.it",
    phone: "+39 333 123 4567",
    deliveryMethod: "standard",
    paymentMethod: "card",
    street: "Via Roma",
    houseNumber: "12",
    postcode: "20121",
    city: "Milano",
    province: "MI",
    acceptTerms: "on",
    ...fields,
  };
}

export function checkoutInput(fields: Record<string, string> = {}): CheckoutInput {
  const parsed = parseCheckoutForm(checkoutForm(fields), "it");
  if (!parsed.ok) throw new Error(`invalid test form: ${JSON.stringify(parsed.errors)}`);
  return parsed.input;
}

/** A cart with these lines (every cart rule applies); returns its id. */
export async function cartWith(db: Db, lines: { variantId: number; quantity: number; personalisation?: Record<string, string> }[]): Promise<string> {
  let cartId: string | null = null;
  for (const line of lines) {
    const added = await addToCart(db, { cartId, variantId: line.variantId, quantity: line.quantity, personalisation: line.personalisation ?? {} });
    if (!added.ok) throw new Error(`cart refused the line: ${added.error}`);
    cartId = added.cartId;
  }
  if (!cartId) throw new Error("cartWith: no lines");
  return cartId;
}

export function placeTestOrder(db: Db, args: Partial<PlaceOrderArgs> & { cartId: string | null; input?: CheckoutInput }) {
  return placeOrder(db, {
    userId: null,
    locale: "it",
    input: checkoutInput(),
    now: new Date(),
    publicUrl: testPublicUrl,
    secret: testSecret,
    ...args,
  });
}

export async function stockOf(db: Db, variantId: number): Promise<number> {
  const [row] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId));
  return row!.stock;
}
