import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";

/** The back office's sections, in the order of the side navigation. */
export const adminSections = [
  { path: "/admin", key: "dashboard", end: true },
  { path: "/admin/prodotti", key: "products", end: false },
  { path: "/admin/sicurezza", key: "productSafety", end: false, labelKey: "productSafety.admin.nav" },
  { path: "/admin/ordini", key: "orders", end: false },
  { path: "/admin/fatture", key: "invoices", end: false, labelKey: "invoices.export.nav" },
  { path: "/admin/sdi", key: "sdi", end: false, labelKey: "sdi.nav" },
  { path: "/admin/corrispettivi", key: "takings", end: false, labelKey: "takings.nav" },
  { path: "/admin/codici-sconto", key: "discountCodes", end: false },
  { path: "/admin/carte-regalo", key: "giftCards", end: false, labelKey: "giftCards.admin.nav" },
  { path: "/admin/liste-regalo", key: "giftLists", end: false },
  { path: "/admin/clienti", key: "customers", end: false },
  { path: "/admin/carta-fedelta", key: "loyalty", end: false, labelKey: "loyalty.nav" },
  { path: "/admin/recensioni", key: "reviews", end: false, labelKey: "reviews.admin.nav" },
  { path: "/admin/garanzia", key: "guaranteeClaims", end: false, labelKey: "guaranteeClaims.admin.nav" },
  { path: "/admin/impostazioni", key: "settings", end: false },
  { path: "/admin/posta", key: "outbox", end: false },
  { path: "/admin/newsletter", key: "newsletter", end: false },
  { path: "/admin/cambi", key: "rates", end: false },
  { path: "/admin/registro", key: "audit", end: false },
] as const;

export function AdminNav({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("admin.nav.label")} className="lg:w-56 lg:shrink-0">
      <ul className="flex gap-2 overflow-x-auto pb-2 lg:flex-col lg:overflow-visible">
        {adminSections.map((section) => (
          <li key={section.key} className="shrink-0">
            <NavLink
              to={localizedHref(section.path, locale)}
              end={section.end}
              className={({ isActive }) =>
                `block rounded-lg px-4 py-3 font-semibold ${isActive ? "bg-brand-700 text-white" : "bg-white text-ink hover:bg-brand-50 border border-brand-100"}`
              }
            >
              {t("labelKey" in section ? section.labelKey : `admin.nav.${section.key}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
