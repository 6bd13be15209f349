/**
 * The signed-in customer's loyalty card (docs/decisions/0099-loyalty-card.md): her number, balance and
 * history as /carta-fedelta shows them, and joining it with her consent. Points are spent through
 * /api/createcheckoutsession (`loyaltyPoints`); the counter's operations are the back office's only.
 */
import { z } from "zod";
import { joinLoyaltyCard } from "#server/loyalty/loyalty.service.ts";
import { getLoyaltyCardView, type LoyaltyCardView } from "#server/loyalty/loyalty-view.service.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { apiFailure } from "./api-http";
import { apiRoute, type ApiOutcome } from "./api-route";

const LoyaltyCard = z
  .object({
    joined: z.boolean(),
    /** 12 digits, the last a Luhn check digit; what the till's scanner reads (Code 128). Null when not joined. */
    number: z.string().nullable(),
    balance: z.number().int(),
    /** What the balance takes off in whole steps, in euro cents. */
    worthCents: z.number().int(),
    /** The earliest points still to expire: how many, and the Italian day (YYYY-MM-DD). */
    nextExpiry: z.object({ points: z.number().int(), on: z.string() }).nullable(),
    rules: z.object({ pointsPerEuro: z.number().int(), stepPoints: z.number().int(), stepCents: z.number().int(), expiryMonths: z.number().int() }),
    /** Newest first: order-earned, order-redeemed, order-returned, refund-taken-back, counter-earned, counter-redeemed, expired. */
    history: z.array(
      z.object({
        kind: z.string(),
        points: z.number().int(),
        at: z.string(),
        orderNumber: z.number().int().nullable(),
        receiptNumber: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "LoyaltyCard" });

function toApiCard(card: LoyaltyCardView): z.input<typeof LoyaltyCard> {
  return {
    joined: true,
    number: card.number,
    balance: card.balance,
    worthCents: Math.floor(card.balance / card.rules.stepPoints) * card.rules.stepCents,
    nextExpiry: card.nextExpiry,
    rules: card.rules,
    history: card.history.map((row) => ({
      kind: row.kind,
      points: row.points,
      at: row.at.toISOString(),
      orderNumber: row.orderNumber,
      receiptNumber: row.receiptNumber,
    })),
  };
}

async function answerCard(view: LoyaltyCardView | null): Promise<ApiOutcome<z.input<typeof LoyaltyCard>>> {
  if (view) return { ok: true, data: toApiCard(view) };
  return {
    ok: true,
    data: {
      joined: false,
      number: null,
      balance: 0,
      worthCents: 0,
      nextExpiry: null,
      rules: { pointsPerEuro: 0, stepPoints: 1, stepCents: 0, expiryMonths: 0 },
      history: [],
    },
  };
}

const getLoyaltyCard = apiRoute({
  method: "GET",
  path: "/api/getLoyaltyCard",
  auth: "user",
  summary: "The caller's loyalty card: number, points balance, what it is worth, the next expiry and the history (joined: false without a card).",
  response: LoyaltyCard,
  handler: async ({ services, user }) => answerCard(await getLoyaltyCardView(services.db, user.id)),
});

const joinLoyalty = apiRoute({
  method: "POST",
  path: "/api/joinLoyaltyCard",
  auth: "user",
  summary: "Joins the loyalty card; `consent: true` says she agreed to its privacy text. Answers her card (the one she has, when joined already).",
  body: z.strictObject({ consent: z.boolean() }),
  response: LoyaltyCard,
  handler: async ({ services, user, body, locale, now }) => {
    const joined = await joinLoyaltyCard(services.db, { userId: user.id, consent: body.consent, now });
    if (!joined.ok && joined.error !== "already-joined") {
      return apiFailure(400, "invalid-input", { consent: getTranslator(locale)(`loyalty.errors.${joined.error}`) });
    }
    return answerCard(await getLoyaltyCardView(services.db, user.id));
  },
});

export const loyaltyEndpoints = [getLoyaltyCard, joinLoyalty];
