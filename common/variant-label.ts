/**
 * How a variant reads beside a product's name, in the page's language: "Bianco · M". One helper for the
 * product page's picker, the cart, the orders, the withdrawal page and the mails, so a colour key ("white")
 * is never shown raw where the product page names it.
 */
import { shownSize } from "./sizes";

/** The translate function of i18next (pages) or of the server's translator: both take a default. */
type Translate = (key: string, options: { defaultValue: string }) => string;

/** "Bianco" / "White" for a colour key; the key itself when the shop has no name for it. */
export function colourName(t: Translate, colour: string): string {
  return t(`cart.colours.${colour}`, { defaultValue: colour });
}

/** "Bianco · M"; "" when the variant has neither a colour nor a size worth printing. */
export function variantLabel(t: Translate, variant: { colour: string | null; size: string | null }, separator = " · "): string {
  return [variant.colour ? colourName(t, variant.colour) : null, shownSize(variant.size)].filter(Boolean).join(separator);
}
