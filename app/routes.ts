import { type RouteConfig, index, prefix, route } from "@react-router/dev/routes";

/**
 * Every URL of the shop in one place. Italian pages live at the root and English ones under /en
 * (the optional static segment "en?"), served by the same modules (DECISIONS.md, Languages).
 * Pages that a later issue fills point at routes/pages/coming-soon.tsx until then.
 */
const comingSoon = "routes/pages/coming-soon.tsx";

export default [
  route("robots.txt", "routes/seo/robots.ts"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("currency", "routes/settings/currency.ts"),
  route("api/auth/*", "routes/api/auth.ts"),
  ...prefix("en?", [
    index("routes/pages/home.tsx"),
    route("about", "routes/pages/about.tsx"),
    route("contact", "routes/pages/contact.tsx"),
    route("centroassistenza", "routes/pages/help-centre.tsx"),
    route("privacy", "routes/pages/privacy.tsx"),
    route("cookie-policy", "routes/pages/cookie-policy.tsx"),

    // catalogue (issue 3)
    route("shop", "routes/shop/listing.tsx", { id: "shop" }),
    route("shop-grid-standard", "routes/shop/listing.tsx", { id: "shop-grid-standard" }),
    route("categoria/:category", "routes/shop/listing.tsx", { id: "category" }),
    route("sottocategoria/:subcategory", "routes/shop/listing.tsx", { id: "subcategory" }),
    route("marchi", "routes/shop/listing.tsx", { id: "brands" }),
    route("marchi/:brand", "routes/shop/listing.tsx", { id: "brand" }),
    route("search/suggest", "routes/shop/search-suggest.ts", { id: "search-suggest" }),
    route("product/:id", "routes/shop/product.tsx", { id: "product" }),
    route("product/:id/quick-view", "routes/shop/product-quick-view.ts", { id: "product-quick-view" }),

    // cart, wishlist, compare (issue 4)
    route("cart", "routes/cart/cart.tsx", { id: "cart" }),
    route("basket/:id", "routes/cart/basket.tsx", { id: "basket" }),
    route("wishlist", "routes/saved/wishlist.tsx", { id: "wishlist" }),
    route("compare", "routes/saved/compare.tsx", { id: "compare" }),

    // checkout (issue 6)
    route("checkout", comingSoon, { id: "checkout" }),

    // accounts (issue 5)
    route("login-register", "routes/account/login-register.tsx", { id: "login-register" }),
    route("forgot-password", "routes/account/forgot-password.tsx", { id: "forgot-password" }),
    route("reset-password", "routes/account/reset-password.tsx", { id: "reset-password" }),
    route("verify-email", "routes/account/verify-email.tsx", { id: "verify-email" }),
    route("logout", "routes/account/logout.ts", { id: "logout" }),
    route("my-account", "routes/account/my-account.tsx", { id: "my-account" }),
    route("my-account/data", "routes/account/account-data.ts", { id: "my-account-data" }),
    route("shopping", "routes/account/shopping.tsx", { id: "shopping" }),

    // gift lists (issue 7)
    route("crea-lista-nascita", comingSoon, { id: "my-gift-lists" }),
    route("lista-nascita", comingSoon, { id: "gift-list-search" }),
    route("lista-nascita/:codice", comingSoon, { id: "gift-list" }),

    // back office (issue 8)
    route("admin", "routes/admin/dashboard.tsx", { id: "admin" }),

    route("*", "routes/pages/not-found.tsx"),
  ]),
] satisfies RouteConfig;
