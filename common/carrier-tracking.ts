/**
 * The couriers the shop ships with and the link to follow a parcel on the courier's own site.
 * Pure: the URL templates are settings (`tracking`), passed in. An order stores the courier's name
 * (orders.carrier); a known courier is recognised by that name, so older orders typed by hand
 * ("Poste Italiane", "brt") get their link too (docs/decisions/0069-carrier-tracking-links.md).
 */

export const knownCarriers = ["brt", "gls", "poste", "sda"] as const;
export type KnownCarrier = (typeof knownCarriers)[number];
/** What the staff pick when shipping: a known courier, or another one they name. */
export const carrierChoices = [...knownCarriers, "other"] as const;
export type CarrierChoice = (typeof carrierChoices)[number];

export const carrierNames: Record<KnownCarrier, string> = { brt: "BRT", gls: "GLS", poste: "Poste Italiane", sda: "SDA" };

/** The placeholder of a template that the parcel's number replaces. */
export const trackingPlaceholder = "{tracking}";

export type TrackingTemplates = Record<KnownCarrier, string>;

/** Names the staff have typed for the known couriers, compared without case, spaces or dots. */
const aliases: Record<string, KnownCarrier> = {
  brt: "brt",
  bartolini: "brt",
  brtbartolini: "brt",
  gls: "gls",
  glsitaly: "gls",
  poste: "poste",
  posteitaliane: "poste",
  postedelivery: "poste",
  postedeliverybusiness: "poste",
  sda: "sda",
  sdaexpresscourier: "sda",
};

function compact(name: string): string {
  return name.toLowerCase().replace(/[\s.\-_]/g, "");
}

export function knownCarrierOf(name: string | null): KnownCarrier | null {
  return name ? (aliases[compact(name)] ?? null) : null;
}

/** The name stored on the order for the staff's choice; null when "other" comes without a name. */
export function carrierNameOf(choice: CarrierChoice, otherName: string | undefined): string | null {
  if (choice !== "other") return carrierNames[choice];
  return otherName?.trim() || null;
}

/** The courier's tracking page for the parcel, or null (another courier, or no number yet). */
export function trackingUrlOf(templates: TrackingTemplates, carrier: string | null, trackingNumber: string | null): string | null {
  const known = knownCarrierOf(carrier);
  const number = trackingNumber?.trim();
  if (!known || !number) return null;
  return templates[known].replace(trackingPlaceholder, encodeURIComponent(number));
}
