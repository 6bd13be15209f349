/** The loyalty card's number as printed, browser-safe (the rules of the number: server/loyalty/loyalty.ts). */

/** "2700 0000 0017": in fours, as printed on the card. */
export function formatCardNumber(number: string): string {
  return number.replace(/(.{4})(?=.)/g, "$1 ");
}
