/** The page where a guest who lost her order's e-mail asks for its link again (footer, help centre, withdrawal page). */
export const orderLookupPath = "/recesso";

/** The withdrawal page's refusal of another customer's order, translated on the server (its page's messages are not loaded). */
export type NotYourOrderData = { refusal: "not-your-order"; title: string; message: string; lookupLabel: string; lookupHref: string };

export function isNotYourOrderData(value: unknown): value is NotYourOrderData {
  return typeof value === "object" && value !== null && (value as Partial<NotYourOrderData>).refusal === "not-your-order";
}
