/**
 * Browsing the shop with one of my lists chosen: "Aggiungi prodotti" on the owner's page keeps the list
 * in a session cookie, every page then shows its running total and offers "add to the list" on cards
 * and in the quick view (they post the selector's own intent, so one rule adds: addProductToGiftList).
 * The cookie holds only the list's id: ownership and status are checked again on every read.
 */
import { data, redirect } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { cookieOptionsFor, readCookie } from "#server/cart/cart-cookie.ts";
import { GiftListId } from "#server/gift-lists/gift-list.inputs.ts";
import { getOwnGiftList } from "#server/gift-lists/gift-list.service.ts";
import { sameSitePath } from "#server/http/same-site-path.ts";
import type { ShopServices } from "#server/shop-services.ts";

export const fillingCookieName = "gift_list_filling";
export const fillingIntents = ["fill-start", "fill-stop"] as const;
export type FillingIntent = (typeof fillingIntents)[number];

export function isFillingIntent(intent: string): intent is FillingIntent {
  return (fillingIntents as readonly string[]).includes(intent);
}

/** No Max-Age: the choice lasts as long as the browser session, as the brief "browse with the list chosen" means. */
function fillingCookieHeader(value: string, publicUrl: string, clear = false) {
  const { secure } = cookieOptionsFor(publicUrl);
  return `${fillingCookieName}=${value}; Path=/;${clear ? " Max-Age=0;" : ""} HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The id of the list the request's cookie says is being filled (ownership and status not checked yet); null when none. */
export function readFillingCookie(request: Request): string | null {
  const id = GiftListId.safeParse(readCookie(request.headers.get("Cookie"), fillingCookieName));
  return id.success ? id.data : null;
}

/**
 * `fill-start` (the owner's page): an open list of mine becomes the chosen one and the shop opens.
 * `fill-stop` (the bar): forgets it and goes back where the form was (or to my lists).
 */
export async function handleGiftListFilling(
  services: Pick<ShopServices, "db" | "publicUrl">,
  args: { userId: string; intent: FillingIntent; form: FormData; locale: Locale },
) {
  const { intent, form, locale } = args;
  if (intent === "fill-stop") {
    const back = sameSitePath(form.get("redirectTo")) ?? localizedHref("/crea-lista-nascita", locale);
    return redirect(back, { status: 303, headers: { "Set-Cookie": fillingCookieHeader("", services.publicUrl, true) } });
  }
  const list = await getOwnGiftList(services.db, args.userId, form.get("giftListId"));
  // Someone else's list, or none: not found, as for every owner action. A closed list of mine says so.
  if (!list) throw data(null, { status: 404 });
  if (list.status !== "open") return data({ intent, listId: list.id, errors: { form: "giftLists.errors.closed" }, values: {} }, { status: 400 });
  return redirect(localizedHref("/shop", locale), { status: 303, headers: { "Set-Cookie": fillingCookieHeader(list.id, services.publicUrl) } });
}
