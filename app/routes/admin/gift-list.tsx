import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AddressLines } from "#app/ui/address-lines.tsx";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminTable, FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { GiftListItemDetails } from "#app/ui/gift-list-item-details.tsx";
import type { MessagesHandle } from "#common/messages.ts";
import { AdminOrdersTable } from "./orders-table";
import { requireAdmin } from "#server/http/guards.ts";
import { closeGiftListAsAdmin, getAdminGiftList } from "#server/admin/gift-lists-admin.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { getOwnerFunds } from "#server/vouchers/gift-list-fund.service.ts";
import type { Route } from "./+types/gift-list";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = {
  messages: ["giftLists", "order", "orderStatus", "product", "productPage", "saved", "delivery", "vouchers.fund"],
} satisfies MessagesHandle;

/** /admin/liste-regalo/{id}: one list as the shop sees it, with its owner, delivery, items and the orders that bought from it. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db, env } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const list = await getAdminGiftList(db, { giftListId: params.giftListId, locale, now: new Date() });
  if (!list) throw data(null, { status: 404 });
  // The staff see the funds and who gave what, never a card's code (decision 0106).
  const funds = (await getOwnerFunds(db, { giftListId: list.id, secret: resolveAuthSecret(env) })).map((fund) => ({
    ...fund,
    card: fund.card && { ...fund.card, code: null },
  }));
  return {
    meta: getPageMetaTexts(locale, "admin.giftList"),
    locale,
    list,
    funds,
    closed: url.searchParams.get("done") === "closed",
  };
}

/** The one change staff make here: closing the list (audited). */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const form = await request.formData();
  if (form.get("intent") !== "close") return data({ error: "admin.errors.invalid" }, { status: 400 });
  const result = await closeGiftListAsAdmin(db, { giftListId: params.giftListId, actorUserId: admin.id });
  if (!result.ok && result.error === "not-found") throw data(null, { status: 404 });
  if (!result.ok) return data({ error: "admin.giftList.alreadyClosed" }, { status: 409 });
  return redirect(`${localizedHref(`/admin/liste-regalo/${params.giftListId}`, localeOfPath(url.pathname))}?done=closed`);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminGiftList({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, list, closed } = loaderData;
  const address = list.delivery.kind === "address" ? list.delivery.address : null;
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{list.title}</h1>
        <div className="flex flex-wrap gap-3">
          <Link to={localizedHref("/admin/liste-regalo", locale)} className="btn-secondary">
            {t("admin.giftList.back")}
          </Link>
          <a href={localizedHref(`/lista-nascita/${list.code}`, locale)} className="btn-secondary" target="_blank" rel="noopener">
            {t("admin.giftList.publicPage")}
          </a>
        </div>
      </div>
      <p className="mt-2 text-lg">
        {t(`giftLists.types.${list.type}`)} · <span className="font-mono">{list.code}</span> · {t(`giftLists.status.${list.status}`)} ·{" "}
        {t(`giftLists.visibility.${list.visibility}`)}
      </p>
      <div className="mt-4 space-y-3">
        {closed && <Notice>{t("admin.giftList.closed")}</Notice>}
        {actionData?.error && <FormAlert>{t(actionData.error)}</FormAlert>}
      </div>

      {list.status === "open" && (
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="close" />
          <button type="submit" className="btn-secondary">
            {t("admin.giftList.close")}
          </button>
        </Form>
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className="rounded-xl border border-brand-100 bg-white p-4">
          <h2 className="text-xl font-bold">{t("admin.giftList.owner")}</h2>
          <p className="mt-2">
            <Link to={localizedHref(`/admin/clienti/${list.ownerId}`, locale)} className="font-semibold text-brand-800 underline">
              {list.ownerName}
            </Link>
            <br />
            <a className="underline break-all" href={`mailto:${list.ownerEmail}`}>
              {list.ownerEmail}
            </a>
          </p>
        </div>
        <div className="rounded-xl border border-brand-100 bg-white p-4">
          <h2 className="text-xl font-bold">{t("admin.giftList.event")}</h2>
          <p className="mt-2">{formatDate(list.eventDate, locale)}</p>
          <p>{list.celebratedNames}</p>
          {list.messageToGuests && <p className="mt-2 text-muted">«{list.messageToGuests}»</p>}
        </div>
        <div className="rounded-xl border border-brand-100 bg-white p-4">
          <h2 className="text-xl font-bold">{t("order.delivery.title")}</h2>
          {address ? <AddressLines address={address} withCountry className="mt-2" /> : <p className="mt-2">{t("giftLists.fields.collection")}</p>}
        </div>
      </div>

      <h2 className="mt-8 text-xl font-bold">{t("admin.giftList.items")}</h2>
      {list.items.length === 0 ? (
        <p className="mt-2">{t("admin.giftList.noItems")}</p>
      ) : (
        <AdminTable
          label={t("admin.giftList.items")}
          className="mt-2"
          minWidth="min-w-[40rem]"
          columns={[
            { label: t("giftLists.mine.product") },
            { label: t("giftLists.mine.wished"), isNumeric: true },
            { label: t("giftLists.mine.bought"), isNumeric: true },
            { label: t("giftLists.mine.stillNeeded"), isNumeric: true },
          ]}
        >
          {list.items.map((item) => (
            <tr key={item.id} className="border-b border-brand-100 align-top">
              <td className="p-2">
                <Link to={localizedHref(`/admin/prodotti/${item.productId}`, locale)} className="font-semibold text-brand-800 underline">
                  {item.name}
                </Link>
                <GiftListItemDetails item={item} />
              </td>
              <td className="p-2 text-right">{item.quantityWished}</td>
              <td className="p-2 text-right">{item.quantityBought}</td>
              <td className="p-2 text-right">{item.stillNeeded}</td>
            </tr>
          ))}
        </AdminTable>
      )}

      {loaderData.funds.length > 0 && (
        <>
          <h2 className="mt-8 text-xl font-bold">{t("vouchers.fund.title")}</h2>
          <ul className="mt-2 space-y-3" data-testid="admin-funds">
            {loaderData.funds.map((fund) => (
              <li key={fund.id} className="rounded-xl bg-white p-4 shadow-card">
                <p className="font-bold">{fund.title}</p>
                <p>
                  {fund.targetCents !== null
                    ? t("vouchers.fund.progress", {
                        collected: formatMoney(fund.collectedCents, locale, "EUR"),
                        target: formatMoney(fund.targetCents, locale, "EUR"),
                      })
                    : t("vouchers.fund.collected", { collected: formatMoney(fund.collectedCents, locale, "EUR") })}
                </p>
                <ul className="mt-1 text-sm">
                  {fund.contributions.map((entry, index) => (
                    <li key={index}>
                      {formatDate(entry.at, locale)} · {entry.giverName} · {formatMoney(entry.amountCents, locale, "EUR")}
                      {entry.message ? ` · «${entry.message}»` : ""}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </>
      )}

      <h2 className="mt-8 text-xl font-bold">{t("admin.giftList.orders")}</h2>
      <p className="mt-2">{t("admin.orders.count", { count: list.orderCount })}</p>
      {list.orders.length > 0 && <AdminOrdersTable label={t("admin.giftList.orders")} rows={list.orders} locale={locale} />}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
