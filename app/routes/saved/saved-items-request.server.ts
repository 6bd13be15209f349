/**
 * The /wishlist and /compare pages as loaders and actions meet them: the lists of the request's
 * cookie, the products to show, and the answer to a form post (a redirect with a flash toast
 * without JavaScript, data for a fetcher).
 */
import { data, redirect } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import {
  applySavedItemsChange,
  normaliseIds,
  savedItemsToastKind,
  savedListLimits,
  type SavedItemsChange,
  type SavedItemsOutcome,
  type SavedListName,
  type SavedLists,
} from "#common/saved-items.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { parseSavedItemsForm } from "#server/saved-items/saved-items.inputs.ts";
import {
  changeAccountSavedItems,
  getSavedProducts,
  isPublishedProduct,
  syncSavedItems,
  type SavedProduct,
} from "#server/saved-items/saved-items.service.ts";
import { buildSavedItemsSetCookie, readSavedItemsCookie } from "#server/saved-items/saved-items.ts";
import type { ShopServices } from "#server/shop-services.ts";

export type SavedListPageData = {
  /** Both lists as the request's cookie has them: what server rendering shows. */
  lists: SavedLists;
  /** The ids whose products were looked up (those missing from `products` no longer exist). */
  ids: number[];
  products: SavedProduct[];
};

/**
 * The products of one list: the ids of `?ids=24.25` when given (the page asks for products the
 * browser saved since), else those of the cookie.
 */
export async function loadSavedListPage(
  services: Pick<ShopServices, "db">,
  request: Request,
  url: URL,
  list: SavedListName,
): Promise<SavedListPageData> {
  const { lists } = readSavedItemsCookie(request.headers.get("Cookie"));
  const idsParam = url.searchParams.get("ids");
  const ids = idsParam === null ? [...lists[list]] : normaliseIds(idsParam.slice(0, 2000).split(/[.,]/).filter(Boolean), savedListLimits[list]);
  const products = await getSavedProducts(services.db, ids, localeOfPath(url.pathname), new Date());
  return { lists, ids, products };
}

export type SavedItemsActionData =
  | { ok: true; outcome: SavedItemsOutcome | null; lists: SavedLists; toast: { kind: "success" | "info" | "warning"; message: string } | null }
  | { ok: false; error: "invalid-request" | "product-not-found"; message: string };

/**
 * A form of app/ui/wishlist-button.tsx or of the list pages. The lists are kept in the cookie, and
 * on the account too when a customer is signed in. Without JavaScript (the form names a
 * `redirectTo`) the answer goes back there with the toast in the flash cookie. `userId`: the signed-in
 * customer (getSessionUser of server/http/guards.ts), or null.
 */
export async function submitSavedListForm(services: ShopServices, request: Request, url: URL, list: SavedListName, userId: string | null) {
  const now = new Date();
  const t = getTranslator(localeOfPath(url.pathname));
  const parsed = parseSavedItemsForm(await request.formData());
  const back = parsed.redirectTo;
  const cartRequest = readCartRequest(request, services);
  const secure = services.publicUrl.startsWith("https:");

  if (!parsed.ok) {
    const message = t("saved.toast.invalid");
    if (back) return redirect(back, { headers: { "Set-Cookie": cartRequest.cookieHeaders.flash([{ kind: "error", message }]) } });
    return data<SavedItemsActionData>({ ok: false, error: parsed.error, message }, { status: 400 });
  }

  const { input } = parsed;
  let lists: SavedLists;
  let outcome: SavedItemsOutcome | null = null;
  if (input.intent === "sync") {
    const browser = { wishlist: input.wishlist, compare: input.compare };
    lists = userId ? await syncSavedItems(services.db, userId, browser, now) : browser;
  } else {
    const change: SavedItemsChange =
      input.intent === "clear" ? { intent: "clear", list } : { intent: input.intent, list, productId: input.productId };
    if (change.intent === "add" && !(await isPublishedProduct(services.db, change.productId))) {
      if (back) throw data(null, { status: 404 });
      return data<SavedItemsActionData>({ ok: false, error: "product-not-found", message: t("notFound.title") }, { status: 404 });
    }
    const result = applySavedItemsChange(readSavedItemsCookie(request.headers.get("Cookie")).lists, change);
    if (userId) await changeAccountSavedItems(services.db, userId, change, now);
    lists = result.lists;
    outcome = result.outcome;
  }

  const headers = new Headers({ "Set-Cookie": buildSavedItemsSetCookie(lists, now, secure) });
  const toast = outcome && { kind: savedItemsToastKind(outcome), message: t(`saved.toast.${list}.${outcome}`, { max: savedListLimits[list] }) };
  if (back) {
    if (toast) headers.append("Set-Cookie", cartRequest.cookieHeaders.flash([toast]));
    return redirect(back, { headers });
  }
  return data<SavedItemsActionData>({ ok: true, outcome, lists, toast }, { headers });
}
