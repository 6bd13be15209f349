/**
 * Exchanges as pure rules (docs/decisions/0105-exchanges.md): which returned lines may be swapped for
 * another variant of the same product, and whether a customer's choices can be honoured. No db or clock.
 */
import { lineExclusion, type WithdrawableLineFacts } from "./withdrawal";

export type ExchangeableLineFacts = WithdrawableLineFacts & {
  productId: number | null;
  bundleLineId: string | null;
  giftListItemId: string | null;
};

/**
 * A line may be exchanged when it could be withdrawn and is a product of its own: a bundle's part has
 * its price only as a share of the bundle, and a gift-list purchase counts on the family's list.
 */
export function isExchangeable(line: ExchangeableLineFacts): boolean {
  return lineExclusion(line) === null && line.productId !== null && line.bundleLineId === null && line.giftListItemId === null;
}

/** The idempotency key of the replacement order made when return `returnId` comes in (checkout's keys are UUIDs). */
export const replacementOrderKey = (returnId: string) => `exchange:${returnId}`;

/**
 * An exchange's replacement order: the customer's right of withdrawal was exercised on the original order, so this one
 * offers neither withdrawal nor a second swap (docs/decisions/0105-exchanges.md).
 */
export const isReplacementOrder = (order: { idempotencyKey: string }) => order.idempotencyKey.startsWith("exchange:");

/** Another variant of the line's product (same product, so the same price), with the units on the shelf now. */
export type ExchangeOption = { variantId: number; sku: string; colour: string | null; size: string | null; stock: number };

export type ExchangeChoice = { orderLineId: string; variantId: number };

export type ExchangeRefusal = "exchange-not-offered" | "exchange-unavailable";

export type CheckedExchange = { orderLineId: string; quantity: number; option: ExchangeOption };

/**
 * Each choice names a returned line and one of its options; every unit of the line that comes back is
 * swapped. "exchange-unavailable": the shelf has fewer units than the line sends back.
 */
export function checkExchangeChoices(
  returned: readonly { orderLineId: string; quantity: number }[],
  optionsOf: ReadonlyMap<string, readonly ExchangeOption[]>,
  choices: readonly ExchangeChoice[],
): { ok: true; exchanges: CheckedExchange[] } | { ok: false; error: ExchangeRefusal } {
  const exchanges: CheckedExchange[] = [];
  for (const choice of choices) {
    const line = returned.find((entry) => entry.orderLineId === choice.orderLineId && entry.quantity > 0);
    const option = optionsOf.get(choice.orderLineId)?.find((candidate) => candidate.variantId === choice.variantId);
    if (!line || !option || exchanges.some((entry) => entry.orderLineId === choice.orderLineId)) return { ok: false, error: "exchange-not-offered" };
    if (option.stock < line.quantity) return { ok: false, error: "exchange-unavailable" };
    exchanges.push({ orderLineId: line.orderLineId, quantity: line.quantity, option });
  }
  return { ok: true, exchanges };
}

/** Days a reservation waits for the goods: the law's 14 days to send them back (art. 57), and 7 on the way. */
export const exchangeHoldDays = 21;
