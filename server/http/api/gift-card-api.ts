/**
 * The gift-card balance check (docs/rules.md#gift-cards), public like the balance page: misses count against
 * the client address (server/gift-cards/gift-card.service.ts); a typo is refused by the code's check character
 * before any lookup. Paying with a card is the checkout's `giftCardCode` field.
 */
import { z } from "zod";
import type { Locale } from "#common/locale.ts";
import type { GiftCardErrorCode } from "#server/gift-cards/gift-card.ts";
import { checkGiftCardBalance } from "#server/gift-cards/gift-card.service.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { centsToDecimal } from "#server/money.ts";
import { apiRefusal } from "./api-http";
import { apiRoute } from "./api-route";

const GiftCardBalance = z
  .object({
    /** The code's last four characters. */
    codeTail: z.string(),
    /** Euro cents left, and the card's value when issued. */
    balanceCents: z.number().int(),
    initialCents: z.number().int(),
    /** The same in euros (12.5 is 12,50 €), as the catalogue's prices. */
    balance: z.number(),
    /** ISO 8601: until then the card can be spent. */
    expiresAt: z.string(),
  })
  .meta({ id: "GiftCardBalance" });

function refusal(error: GiftCardErrorCode, locale: Locale) {
  const message = getTranslator(locale)(`giftCards.errors.${error}`);
  if (error === "throttled") return apiRefusal(429, "too-many-requests", message);
  if (error === "invalid-code") return apiRefusal(400, "invalid-code", message);
  if (error === "not-found") return apiRefusal(404, "not-found", message);
  return apiRefusal(409, "conflict", message);
}

const giftCardBalance = apiRoute({
  method: "GET",
  path: "/api/public/carta-regalo/saldo",
  auth: "public",
  summary:
    "A gift card's balance by its code (16 characters, any case, spaces or dashes ignored; a wrong check character is 400 without a lookup). Unknown codes count against the client address: after 10 in 10 minutes every check is 429. An expired or deactivated card is 409.",
  errors: [404, 409, 429],
  query: z.strictObject({ codice: z.string().max(40) }),
  response: GiftCardBalance,
  handler: async ({ services, query, clientIp, now, locale }) => {
    const checked = await checkGiftCardBalance(services.db, { code: query.codice, clientIp, now });
    if (!checked.ok) return refusal(checked.error, locale);
    const { balance } = checked;
    return {
      ok: true,
      data: {
        codeTail: balance.codeTail,
        balanceCents: balance.balanceCents,
        initialCents: balance.initialCents,
        balance: centsToDecimal(balance.balanceCents),
        expiresAt: balance.expiresAt.toISOString(),
      },
    };
  },
});

export const giftCardEndpoints = [giftCardBalance];
