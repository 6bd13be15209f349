import { type RouteConfig, index, prefix, route } from "@react-router/dev/routes";

/**
 * Every URL of the shop in one place. Italian pages live at the root and English ones under /en
 * (the optional static segment "en?"), served by the same modules (DECISIONS.md, Languages).
 * Pages that a later issue fills point at routes/pages/coming-soon.tsx until then.
 */
const comingSoon = "routes/pages/coming-soon.tsx";

export default [
  route("robots.txt", "routes/seo/robots.ts"),
  route("api/auth/*", "routes/api/auth.ts"),
  ...prefix("en?", [
    index("routes/pages/home.tsx"),
    route("about", "routes/pages/about.tsx"),
    route("contact", "routes/pages/contact.tsx"),
    route("centroassistenza", "routes/pages/help-centre.tsx"),
    route("privacy", "routes/pages/privacy.tsx"),
    route("cookie-policy", "routes/pages/cookie-policy.tsx"),

    // catalogue (issue 3)
    route("shop", comingSoon, { id: "shop" }),
    route("shop-grid-standard", comingSoon, { id: "shop-grid-standard" }),
    route("categoria/:category", comingSoon, { id: "category" }),
    route("sottocategoria/:subcategory", comingSoon, { id: "subcategory" }),
    route("marchi", comingSoon, { id: "brands" }),
    route("product/:id", comingSoon, { id: "product" }),

    // cart, wishlist, compare (issue 4)
    route("cart", comingSoon, { id: "cart" }),
    route("basket/:id", comingSoon, { id: "basket" }),
    route("wishlist", comingSoon, { id: "wishlist" }),
    route("compare", comingSoon, { id: "compare" }),

    // checkout (issue 6)
    route("checkout", comingSoon, { id: "checkout" }),

    // accounts (issue 5)
    route("login-register", comingSoon, { id: "login-register" }),
    route("forgot-password", comingSoon, { id: "forgot-password" }),
    route("my-account", comingSoon, { id: "my-account" }),
    route("shopping", comingSoon, { id: "shopping" }),

    // gift lists (issue 7)
    route("crea-lista-nascita", comingSoon, { id: "my-gift-lists" }),
    route("lista-nascita", comingSoon, { id: "gift-list-search" }),
    route("lista-nascita/:codice", comingSoon, { id: "gift-list" }),

    // back office (issue 8)
    route("admin", comingSoon, { id: "admin" }),

    route("*", "routes/pages/not-found.tsx"),
  ]),
] satisfies RouteConfig;
