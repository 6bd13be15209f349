import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/**
 * Every URL of the shop in one place. Italian pages live at the root and English ones under /en
 * (the optional static segment "en?"), served by the same modules (docs/rules.md#languages).
 */

export default [
  route("robots.txt", "routes/seo/robots.ts"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  // Google Merchant Center's product feed, one file per language: /feeds/google-merchant/it.xml and en.xml
  route("feeds/google-merchant/:file", "routes/seo/merchant-feed.ts"),
  route("currency", "routes/settings/currency.ts"),
  route("api/auth/*", "routes/api/auth.ts"),
  route("api/payments/stripe/webhook", "routes/api/stripe-webhook.ts"),
  route("api/sdi/notifiche", "routes/api/sdi-webhook.ts"),
  // the shop's HTTP API (docs/rules.md#http-api): every call in server/http/api/api-registry.ts
  route("api/openapi.json", "routes/api/openapi-json.ts"),
  route("api/*", "routes/api/endpoint.ts", { id: "api" }),
  // Every page below one error boundary, under the root: a failed post still gets the root's data (shell, messages)
  layout(
    "routes/pages/page-errors.tsx",
    { id: "page-errors" },
    prefix("en?", [
      index("routes/pages/home.tsx"),
      route("about", "routes/pages/about.tsx"),
      route("contact", "routes/pages/contact.tsx"),
      route("centroassistenza", "routes/pages/help-centre.tsx"),
      route("privacy", "routes/pages/privacy.tsx"),
      route("cookie-policy", "routes/pages/cookie-policy.tsx"),
      // the clothing size guide, linked from clothing's product pages
      route("guida-alle-taglie", "routes/pages/size-guide.tsx", { id: "size-guide" }),

      // the shop's own newsletter list: sign-up, the mail's confirmation and unsubscribe links
      route("newsletter", "routes/newsletter/sign-up.tsx", { id: "newsletter" }),
      route("newsletter/conferma", "routes/newsletter/confirm.tsx", { id: "newsletter-confirm" }),
      route("newsletter/cancellazione", "routes/newsletter/unsubscribe.tsx", { id: "newsletter-unsubscribe" }),
      // back-in-stock alerts: the links of their mails (asking is the product page's action)
      route("avviso-disponibilita/conferma", "routes/stock-alerts/confirm.tsx", { id: "stock-alert-confirm" }),
      route("avviso-disponibilita/cancellazione", "routes/stock-alerts/unsubscribe.tsx", { id: "stock-alert-unsubscribe" }),
      // the opt-out link of every cart reminder and review invitation (decision 0102)
      route("promemoria/cancellazione", "routes/customer-mails/opt-out.tsx", { id: "customer-mails-opt-out" }),
      route("api/docs", "routes/api/docs.tsx", { id: "api-docs" }),

      // catalogue
      route("shop", "routes/shop/listing.tsx", { id: "shop" }),
      route("shop-grid-standard", "routes/shop/listing.tsx", { id: "shop-grid-standard" }),
      route("categoria/:category", "routes/shop/listing.tsx", { id: "category" }),
      route("sottocategoria/:subcategory", "routes/shop/listing.tsx", { id: "subcategory" }),
      route("marchi", "routes/shop/listing.tsx", { id: "brands" }),
      route("marchi/:brand", "routes/shop/listing.tsx", { id: "brand" }),
      route("search/suggest", "routes/shop/search-suggest.ts", { id: "search-suggest" }),
      route("product/:id", "routes/shop/product.tsx", { id: "product" }),
      route("product/:id/quick-view", "routes/shop/product-quick-view.ts", { id: "product-quick-view" }),

      // cart, wishlist, compare
      route("cart", "routes/cart/cart.tsx", { id: "cart" }),
      route("basket/:id", "routes/cart/basket.tsx", { id: "basket" }),
      route("wishlist", "routes/saved/wishlist.tsx", { id: "wishlist" }),
      route("compare", "routes/saved/compare.tsx", { id: "compare" }),

      // checkout
      route("checkout", "routes/checkout/checkout.tsx", { id: "checkout" }),
      route("ordine/:orderId", "routes/checkout/order.tsx", { id: "order" }),
      route("ordine/:orderId/recesso", "routes/checkout/withdrawal.tsx", { id: "withdrawal" }),
      // the withdrawal function for every buyer: a guest gets her order's link again by number and e-mail
      route("recesso", "routes/checkout/order-lookup.tsx", { id: "order-lookup" }),
      route("ordine/:orderId/annulla-pagamento", "routes/checkout/abandon-payment.ts", { id: "abandon-payment" }),
      route("ordine/:orderId/conferma-pagamento", "routes/checkout/confirm-payment.ts", { id: "confirm-payment" }),
      route("ordine/:orderId/recensione/:productId", "routes/reviews/write-review.tsx", { id: "write-review" }),
      // claims under the legal guarantee (decision 0103)
      route("ordine/:orderId/garanzia", "routes/guarantee/claim.tsx", { id: "guarantee-claim" }),
      route("ordine/:orderId/garanzia/foto/:photoId", "routes/guarantee/claim-photo.ts", { id: "guarantee-claim-photo" }),
      route("ordine/:orderId/fattura/:invoiceId", "routes/invoices/invoice-document.ts", { id: "order-invoice" }),
      route("ordine/:orderId/fattura/:invoiceId/xml", "routes/invoices/invoice-xml.ts", { id: "order-invoice-xml" }),
      route("pagamento-di-prova/:ref", "routes/checkout/test-payment.tsx", { id: "test-payment" }),

      // accounts
      route("login-register", "routes/account/login-register.tsx", { id: "login-register" }),
      route("forgot-password", "routes/account/forgot-password.tsx", { id: "forgot-password" }),
      route("reset-password", "routes/account/reset-password.tsx", { id: "reset-password" }),
      route("verify-email", "routes/account/verify-email.tsx", { id: "verify-email" }),
      route("logout", "routes/account/logout.ts", { id: "logout" }),
      route("my-account", "routes/account/my-account.tsx", { id: "my-account" }),
      route("my-account/data", "routes/account/account-data.ts", { id: "my-account-data" }),
      // Her personal part as JSON, fetched by the browser while her pages are the visitors' kept ones (decision 0095)
      route("personal", "routes/account/personal.ts", { id: "personal" }),
      route("shopping", "routes/account/shopping.tsx", { id: "shopping" }),
      route("carta-fedelta", "routes/account/loyalty-card.tsx", { id: "loyalty-card" }),

      // gift lists
      route("crea-lista-nascita", "routes/gift-lists/my-gift-lists.tsx", { id: "my-gift-lists" }),
      route("lista-nascita", "routes/gift-lists/gift-list-search.tsx", { id: "gift-list-search" }),
      // gift cards: the balance check (paying with one is the checkout's)
      route("carta-regalo", "routes/gift-cards/gift-card-balance.tsx", { id: "gift-card-balance" }),
      // buying one online: a voucher line in the cart (decision 0106); its print page is the buyer's, beside her order
      route("carta-regalo/acquista", "routes/gift-cards/gift-card-purchase.tsx", { id: "gift-card-purchase" }),
      route("ordine/:orderId/carta-regalo/:voucherId", "routes/gift-cards/gift-card-print.tsx", { id: "gift-card-print" }),
      route("lista-nascita/:codice", "routes/gift-lists/gift-list.tsx", { id: "gift-list" }),

      // back office: every page checks requireAdmin itself; the layout only frames them
      // the packing slip prints on its own, outside the back-office frame
      route("admin/ordini/:orderId/bolla", "routes/admin/packing-slip.ts", { id: "admin-packing-slip" }),
      // so do invoices; their XML and the month's export are downloads
      route("admin/fatture/:invoiceId", "routes/invoices/invoice-document.ts", { id: "admin-invoice" }),
      route("admin/fatture/:invoiceId/xml", "routes/invoices/invoice-xml.ts", { id: "admin-invoice-xml" }),
      route("admin/fatture/esporta/:month", "routes/admin/invoices-export.ts", { id: "admin-invoices-export" }),
      route("admin/corrispettivi/esporta/:month", "routes/admin/takings-export.ts", { id: "admin-takings-export" }),
      // the owner's account, made with the one-time link printed at start while the shop has no administrator
      route("admin/setup", "routes/admin/owner-setup.tsx", { id: "admin-setup" }),
      layout("routes/admin/layout.tsx", { id: "admin-layout" }, [
        route("admin", "routes/admin/dashboard.tsx", { id: "admin" }),
        route("admin/prodotti", "routes/admin/products.tsx", { id: "admin-products" }),
        route("admin/prodotti/nuovo", "routes/admin/product-edit.tsx", { id: "admin-product-new" }),
        route("admin/prodotti/esporta.csv", "routes/admin/products-export.ts", { id: "admin-products-export" }),
        route("admin/prodotti/:id", "routes/admin/product-edit.tsx", { id: "admin-product-edit" }),
        route("admin/prodotti/:id/sicurezza", "routes/admin/product-safety-edit.tsx", { id: "admin-product-safety-edit" }),
        route("admin/prodotti/:id/caratteristiche", "routes/admin/product-specs-edit.tsx", { id: "admin-product-specs-edit" }),
        route("admin/prodotti/:id/bundle", "routes/admin/bundle-edit.tsx", { id: "admin-bundle-edit" }),
        route("admin/sicurezza", "routes/admin/product-safety.tsx", { id: "admin-product-safety" }),
        route("admin/importa", "routes/admin/import.tsx", { id: "admin-import" }),
        route("admin/importa/:jobId", "routes/admin/import.tsx", { id: "admin-import-job" }),
        route("admin/registro", "routes/admin/audit.tsx", { id: "admin-audit" }),
        route("admin/ordini", "routes/admin/orders.tsx", { id: "admin-orders" }),
        route("admin/ordini/:orderId", "routes/admin/order.tsx", { id: "admin-order" }),
        route("admin/fatture", "routes/admin/invoices.tsx", { id: "admin-invoices" }),
        route("admin/sdi", "routes/admin/sdi.tsx", { id: "admin-sdi" }),
        route("admin/sdi/:invoiceId", "routes/admin/sdi-invoice.tsx", { id: "admin-sdi-invoice" }),
        route("admin/corrispettivi", "routes/admin/takings.tsx", { id: "admin-takings" }),
        route("admin/rimborsi", "routes/admin/refunds.tsx", { id: "admin-refunds" }),
        route("admin/impostazioni", "routes/admin/settings.tsx", { id: "admin-settings" }),
        route("admin/messa-online", "routes/admin/launch-checklist.tsx", { id: "admin-launch-checklist" }),
        route("admin/posta", "routes/admin/outbox.tsx", { id: "admin-outbox" }),
        route("admin/posta/:id", "routes/admin/outbox-email.tsx", { id: "admin-outbox-email" }),
        route("admin/newsletter", "routes/admin/newsletter.tsx", { id: "admin-newsletter" }),
        route("admin/newsletter/iscritti.csv", "routes/admin/newsletter-export.ts", { id: "admin-newsletter-export" }),
        route("admin/cambi", "routes/admin/rates.tsx", { id: "admin-rates" }),
        route("admin/liste-regalo", "routes/admin/gift-lists.tsx", { id: "admin-gift-lists" }),
        route("admin/liste-regalo/:giftListId", "routes/admin/gift-list.tsx", { id: "admin-gift-list" }),
        route("admin/codici-sconto", "routes/admin/discount-codes.tsx", { id: "admin-discount-codes" }),
        route("admin/codici-sconto/:id", "routes/admin/discount-code-edit.tsx", { id: "admin-discount-code" }),
        route("admin/carte-regalo", "routes/admin/gift-cards.tsx", { id: "admin-gift-cards" }),
        route("admin/clienti", "routes/admin/customers.tsx", { id: "admin-customers" }),
        route("admin/clienti/:userId", "routes/admin/customer.tsx", { id: "admin-customer" }),
        route("admin/carta-fedelta", "routes/admin/loyalty-counter.tsx", { id: "admin-loyalty" }),
        route("admin/recensioni", "routes/admin/reviews.tsx", { id: "admin-reviews" }),
        route("admin/garanzia", "routes/admin/guarantee-claims.tsx", { id: "admin-guarantee-claims" }),
        route("admin/garanzia/:claimId", "routes/admin/guarantee-claim.tsx", { id: "admin-guarantee-claim" }),
        route("admin/*", "routes/admin/not-found.tsx", { id: "admin-not-found" }),
      ]),

      route("*", "routes/pages/not-found.tsx"),
    ]),
  ),
] satisfies RouteConfig;
