/**
 * The HTTP edge of voucher lines: the gift card form of /carta-regalo/acquista, a guest's contribution to a
 * list's fund, and "remove" on the cart page. The form is parsed once; a refusal answers the page with its
 * messages (400) or, from another page, goes back there with a toast; a voucher added or removed goes to the cart.
 */
import { data, redirect } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { BuyGiftCardInput, FundContributionInput, parseVoucherForm, type VoucherFieldErrors } from "#server/vouchers/voucher.inputs.ts";
import { addFundContributionToCart, addGiftCardToCart, clearCartVouchers, removeCartVoucher } from "#server/vouchers/voucher.service.ts";
import { persistentCartErrors, type CartErrorCode } from "#server/cart/cart.ts";

/** Where a form may send the guest back to: a page of this shop. */
function safeReturn(raw: FormDataEntryValue | null, fallback: string): string {
  return typeof raw === "string" && raw.startsWith("/") && !raw.startsWith("//") ? raw : fallback;
}

export async function handleVoucherAction(services: ShopServices, request: Request, locale: Locale, now: Date) {
  const t = getTranslator(locale);
  const cartRequest = readCartRequest(request, services);
  const form = await request.formData();
  const intent = form.get("intent");
  const headers = new Headers();
  const cartPath = localizedHref("/cart", locale);
  const back = (to: string, toast: { kind: "success" | "error"; message: string; persistent?: boolean }) => {
    headers.append("Set-Cookie", cartRequest.cookieHeaders.flash([toast]));
    return redirect(to, { status: 303, headers });
  };
  const rememberCart = (cartId: string) => {
    if (cartId !== cartRequest.cartId) headers.append("Set-Cookie", cartRequest.cookieHeaders.cart(cartId));
  };
  if (intent === "remove") {
    const voucherId = form.get("voucherId");
    const removed = await removeCartVoucher(services.db, { cartId: cartRequest.cartId, voucherId: typeof voucherId === "string" ? voucherId : "" });
    return back(
      cartPath,
      removed.ok ? { kind: "error", message: t("vouchers.cart.removed") } : { kind: "error", message: t("vouchers.errors.voucher-not-found") },
    );
  }
  if (intent === "clear") {
    await clearCartVouchers(services.db, cartRequest.cartId);
    return back(cartPath, { kind: "error", message: t("cart.toast.cleared") });
  }
  if (intent === "contribute") {
    const returnTo = safeReturn(form.get("returnTo"), localizedHref("/lista-nascita", locale));
    const parsed = parseVoucherForm(FundContributionInput, form);
    if (!parsed.ok)
      return back(returnTo, {
        kind: "error",
        message: Object.values(parsed.errors)
          .map((key) => t(key!))
          .join(" "),
      });
    const added = await addFundContributionToCart(services.db, { cartId: cartRequest.cartId, input: parsed.input, now });
    if (!added.ok) {
      const persistent = persistentCartErrors.has(added.error as CartErrorCode);
      return back(returnTo, { kind: "error", message: t(`vouchers.errors.${added.error}`), ...(persistent ? { persistent } : {}) });
    }
    rememberCart(added.cartId);
    return back(cartPath, { kind: "success", message: t("vouchers.fund.added") });
  }
  // The gift card form: its errors are shown beside its fields.
  const parsed = parseVoucherForm(BuyGiftCardInput, form);
  const values = Object.fromEntries([...form.entries()].filter(([key, value]) => typeof value === "string" && key !== "intent")) as Record<
    string,
    string
  >;
  if (!parsed.ok) return data({ errors: parsed.errors, values }, { status: 400 });
  const added = await addGiftCardToCart(services.db, { cartId: cartRequest.cartId, input: parsed.input, now });
  if (!added.ok) {
    const field = added.error === "amount-out-of-range" ? "amount" : added.error === "deliver-day-out-of-range" ? "deliverOn" : "form";
    const errors: VoucherFieldErrors = { [field]: `vouchers.errors.${added.error}` };
    return data({ errors, values }, { status: added.error.startsWith("gift-list-conflict") || added.error === "too-many-vouchers" ? 409 : 400 });
  }
  rememberCart(added.cartId);
  return back(cartPath, { kind: "success", message: t("vouchers.purchase.added") });
}
