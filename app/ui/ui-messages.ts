/**
 * The messages of UI pieces several pages render, for those routes' `handle.messages`
 * (app/lib/route-messages.ts; app/lib/route-messages.test.ts checks each page lists what it renders).
 */

/** A product's purchase form: colour and size choice, quantity, personalisation, delivery promise (product page, quick view, gift lists). */
export const purchaseFormMessages = [
  "delivery",
  "productPage.buyNow",
  "productPage.cartHoldsAll",
  "productPage.colour",
  "productPage.decrease",
  "productPage.inCart",
  "productPage.inStock",
  "productPage.increase",
  "productPage.newTab",
  "productPage.personalisation",
  "productPage.preorder",
  "productPage.quantity",
  "productPage.quantityAtLeast",
  "productPage.quantityAtMost",
  "productPage.quantityWhole",
  "productPage.selected",
  "productPage.size",
  "productPage.sizeSoldOut",
  "productPage.stickyBar",
] as const;

/** The wishlist and compare buttons, and their toasts (app/ui/saved-items.tsx). */
export const savedItemsMessages = [
  "saved.chooseOptions",
  "saved.chooseOptionsOf",
  "saved.compare.add",
  "saved.compare.inList",
  "saved.goToShop",
  "saved.notAvailable",
  "saved.onRequestCta",
  "saved.removeButton",
  "saved.stock",
  "saved.toast",
  "saved.wishlist.add",
  "saved.wishlist.inList",
] as const;

/** A product card with its badges, buttons and quick view (home, listings, related products). */
export const productCardMessages = [
  "product",
  "productCard",
  "productPage.discount",
  "productPage.onRequest.text",
  "productPage.quickView",
  "reviews.product.summary",
  ...purchaseFormMessages,
  ...savedItemsMessages,
] as const;

/** A gift list's items: their purchase form, the wishlist and compare buttons, the group-gift form (gift-list pages). */
export const giftListItemMessages = [
  ...purchaseFormMessages,
  ...savedItemsMessages,
  "product",
  "auth.fields",
  "checkout.fields.acceptTerms",
  "checkout.fields.termsLink",
  "checkout.fields.newTab",
  "checkout.placing",
] as const;
