/**
 * The product page's gift-list selector (docs/rules.md#adding-from-the-product-page, `ProdinListaRegalo`): a logged-in
 * customer adds the chosen variant to one of their lists. A fetcher gets `{ ok, message }` for the
 * success or failure dialog; a post without JavaScript comes back to the page with a flash toast.
 */
import { data, redirect } from "react-router";
import { fetcherMarkerField } from "#app/routes/cart/cart-action.server.ts";
import type { Locale } from "#common/locale.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { addProductToGiftList } from "#server/gift-lists/gift-list.service.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { sameSitePath } from "#server/http/same-site-path.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import type { ShopServices } from "#server/shop-services.ts";

export const giftListSelectorIntent = "gift-list-add";

export type GiftListSelectorAnswer = { ok: true } | { ok: false; message: string };

type Context = Parameters<typeof getSessionUser>[0];

export async function handleGiftListSelector(
  services: ShopServices,
  context: Context,
  request: Request,
  args: { locale: Locale; form: FormData; fallbackPath: string },
) {
  const { locale, form } = args;
  const t = getTranslator(locale);
  const user = await getSessionUser(context, request);
  // Logged out (the session ended in another tab): the 401 page offers the login.
  if (!user) throw data(null, { status: 401 });
  const personalisation: Record<string, string> = {};
  for (const [name, value] of form) {
    const match = /^personalisation\.(0|[1-9][0-9]{0,3})$/.exec(name);
    if (match && typeof value === "string") personalisation[match[1]!] = value;
  }
  const result = await addProductToGiftList(services.db, {
    userId: user.id,
    input: { giftListId: form.get("giftListId"), variantId: form.get("variantId"), quantity: form.get("quantity") ?? "1", personalisation },
  });
  let answer: GiftListSelectorAnswer;
  if (result.ok) answer = { ok: true };
  else {
    const key = "errors" in result ? (Object.values(result.errors)[0] ?? "giftLists.errors.invalid") : `giftLists.errors.${result.error}`;
    answer = { ok: false, message: t(key) };
  }
  if (form.get(fetcherMarkerField) === "1") return data(answer, { status: answer.ok ? 200 : 400 });
  const toast = answer.ok
    ? { kind: "success" as const, message: `${t("giftLists.selector.successTitle")}. ${t("giftLists.selector.successText")}` }
    : { kind: "error" as const, message: `${t("giftLists.selector.errorTitle")} ${t("giftLists.selector.errorText")} ${answer.message}` };
  const headers = new Headers({ "Set-Cookie": readCartRequest(request, services).cookieHeaders.flash([toast]) });
  return redirect(sameSitePath(form.get("redirectTo")) ?? args.fallbackPath, { status: 303, headers });
}
