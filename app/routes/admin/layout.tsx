import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminNav } from "#app/ui/admin-nav.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { cardPaymentProviderOf } from "#server/env.ts";
import { shopContext } from "#server/http/context.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { refuseWithOwnerSetupGuide } from "./owner-setup-guide.server";
import type { Route } from "./+types/layout";

/** The back office's own messages, for every page inside it (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    "admin",
    "adminDashboard",
    "reviews.admin.nav",
    "invoices.export.nav",
    "sdi.nav",
    "takings.nav",
    "productSafety.admin.nav",
    "guaranteeClaims.admin.nav",
    "giftCards.admin.nav",
    "loyalty.nav",
  ],
} satisfies MessagesHandle;

/**
 * The frame of every /admin page: side navigation beside the page. Its check shows the 401/403
 * pages early, but protects nothing below it: every admin loader and action checks again.
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  // A shop without an administrator yet: the visitor is told how the owner's account is made (the link printed at start).
  await refuseWithOwnerSetupGuide(context, request, url);
  const admin = await requireAdmin(context, request);
  // Staff must see at once when card orders are not really paid (test page) or cards are not offered at all.
  const cardPayments = cardPaymentProviderOf(context.get(shopContext).env);
  return { locale: localeOfPath(url.pathname), adminName: admin.name, cardPayments };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 lg:flex-row">
      <AdminNav locale={loaderData.locale} />
      <div className="min-w-0 flex-1">
        {loaderData.cardPayments !== "stripe" && (
          <p
            className="mb-4 rounded-xl border-2 border-dashed border-coral-600 bg-coral-50 p-4 font-bold text-coral-700"
            data-testid="card-payments-banner"
          >
            {t(`admin.cardPayments.${loaderData.cardPayments}`)}
          </p>
        )}
        <p className="mb-2 text-sm text-muted">{t("admin.signedInAs", { name: loaderData.adminName })}</p>
        <Outlet />
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
