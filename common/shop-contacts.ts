/** What the shop's contact links need of its identity (the settings' `shop`). */
export type ShopAddress = { legalName: string; street: string; postcode: string; city: string; province: string };

/** "Via Nazionale delle Puglie, 112, 80013 Casalnuovo di Napoli (NA)" */
export function postalAddress(shop: ShopAddress): string {
  return `${shop.street}, ${shop.postcode} ${shop.city} (${shop.province})`;
}

export function mapsHref(shop: ShopAddress): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${shop.legalName}, ${postalAddress(shop)}`)}`;
}

export function whatsappHref(whatsapp: string): string {
  return `https://wa.me/${whatsapp}`;
}

/** "+39 081 842 1234" -> "tel:+390818421234" */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+0-9]/g, "")}`;
}

/** "393331234567" -> "+39 333 123 4567", for reading. */
export function formatWhatsappNumber(whatsapp: string): string {
  const match = /^39(\d{3})(\d{3})(\d+)$/.exec(whatsapp);
  return match ? `+39 ${match[1]} ${match[2]} ${match[3]}` : `+${whatsapp}`;
}
