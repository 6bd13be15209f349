import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminTable, Notice } from "#app/ui/admin-form.tsx";
import { TextField } from "#app/ui/form-field.tsx";
import { defaultValidityMonths, giftCardLimits } from "#server/gift-cards/gift-card.ts";
import { parseCounterSaleForm } from "#server/gift-cards/gift-card.inputs.ts";
import { deactivateGiftCardByStaff, getGiftCard, listGiftCards, sellGiftCardAtCounter } from "#server/gift-cards/gift-card.service.ts";
import { shopContext } from "#server/http/context.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { getPageMetaTexts, getTranslator } from "#server/i18n/translator.ts";
import type { Route } from "./+types/gift-cards";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["giftCards.admin", "giftCards.card"] } satisfies MessagesHandle;

/**
 * /admin/carte-regalo: find cards (whole code, last four characters, name or e-mail), see one card's movements,
 * enter a card sold at the counter (its code shown once, to print) and deactivate a card.
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const search = (url.searchParams.get("q") ?? "").slice(0, 100);
  const selectedId = Number(url.searchParams.get("carta"));
  const selected = Number.isSafeInteger(selectedId) && selectedId > 0 ? await getGiftCard(db, selectedId) : null;
  return {
    meta: getPageMetaTexts(locale, "giftCards.admin"),
    locale,
    search,
    now: new Date().toISOString(),
    defaultValidityMonths,
    done: url.searchParams.get("done") === "deactivated" ? "deactivated" : null,
    cards: await listGiftCards(db, { search }),
    selected: selected && {
      card: { ...selected.card, codeHash: undefined },
      movements: selected.movements.map(({ id, kind, amountCents, orderId, createdAt }) => ({ id, kind, amountCents, orderId, createdAt })),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const intent = form.get("intent");
  const now = new Date();
  if (intent === "deactivate") {
    const id = Number(form.get("id"));
    if (!Number.isSafeInteger(id) || id <= 0) return data({ errors: { form: "admin.errors.invalid" }, issued: null }, { status: 400 });
    await deactivateGiftCardByStaff(db, { id, actorUserId: admin.id, now });
    return redirect(`${localizedHref("/admin/carte-regalo", locale)}?carta=${id}&done=deactivated`);
  }
  if (intent !== "issue") return data({ errors: { form: "admin.errors.invalid" }, issued: null }, { status: 400 });
  const parsed = parseCounterSaleForm(form);
  if (!parsed.ok) {
    const t = getTranslator(locale);
    const limits = { min: formatMoney(giftCardLimits.minCents, locale), max: formatMoney(giftCardLimits.maxCents, locale) };
    const errors = Object.fromEntries(Object.entries(parsed.errors).map(([field, key]) => [field, t(key, limits)]));
    return data({ errors, issued: null }, { status: 400 });
  }
  const card = await sellGiftCardAtCounter(db, { ...parsed.input, actorUserId: admin.id, now });
  // The code is in this answer only: it is never stored, so it cannot be shown again.
  return {
    errors: null,
    issued: {
      id: card.id,
      code: card.code,
      amountCents: card.amountCents,
      expiresAt: card.expiresAt.toISOString(),
      recipientName: parsed.input.recipientName,
    },
  };
}

type Issued = { id: number; code: string; amountCents: number; expiresAt: string; recipientName: string };

/** The card to print and hand over: only this block is printed (app.css, `data-print-only`). */
function PrintableCard({ issued, locale }: { issued: Issued; locale: "it" | "en" }) {
  const { t } = useTranslation();
  return (
    <div className="mt-4 space-y-3" data-testid="gift-card-issued">
      <Notice>{t("giftCards.admin.issued")}</Notice>
      <div data-print-only className="max-w-md rounded-2xl border-2 border-dashed border-brand-300 bg-white p-6 text-center">
        <p className="text-xl font-bold">{t("giftCards.card.title")}</p>
        {issued.recipientName && <p className="mt-1">{issued.recipientName}</p>}
        <p className="mt-2 text-3xl font-bold text-brand-800">{t("giftCards.card.amount", { amount: formatMoney(issued.amountCents, locale) })}</p>
        <p className="mt-4 text-sm">{t("giftCards.card.code")}</p>
        <p className="font-mono text-2xl font-bold tracking-wider" data-testid="gift-card-code">
          {issued.code}
        </p>
        <p className="mt-3 text-sm">{t("giftCards.card.validUntil", { date: formatDate(issued.expiresAt, locale) })}</p>
        <p className="mt-2 text-sm text-muted">{t("giftCards.card.howTo")}</p>
      </div>
      <button type="button" className="btn-secondary" onClick={() => window.print()}>
        {t("giftCards.admin.print")}
      </button>
    </div>
  );
}

export default function AdminGiftCards({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, cards, search, selected, done, now, defaultValidityMonths } = loaderData;
  const navigation = useNavigation();
  const errors: Record<string, string> = actionData?.errors ?? {};
  const stateOf = (card: { isActive: boolean; expiresAt: Date | string }) =>
    !card.isActive
      ? t("giftCards.admin.inactive")
      : new Date(card.expiresAt) <= new Date(now)
        ? t("giftCards.admin.expired")
        : t("giftCards.admin.active");
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("giftCards.admin.title")}</h1>
      {done && (
        <div className="mt-4">
          <Notice>{t("giftCards.admin.deactivated")}</Notice>
        </div>
      )}

      <div className="mt-6 rounded-xl border border-brand-100 bg-white p-4">
        <h2 className="text-xl font-bold">{t("giftCards.admin.counterTitle")}</h2>
        {errors.form && (
          <p className="field-error" role="alert">
            {t(errors.form)}
          </p>
        )}
        <Form method="post" className="mt-3 grid gap-4 sm:grid-cols-3">
          <TextField label={t("giftCards.admin.amount")} name="amount" inputMode="decimal" required error={errors.amount} />
          <TextField
            label={t("giftCards.admin.validityMonths")}
            name="validityMonths"
            inputMode="numeric"
            defaultValue={String(defaultValidityMonths)}
            error={errors.validityMonths}
          />
          <TextField label={t("giftCards.admin.recipientName")} name="recipientName" maxLength={100} error={errors.recipientName} />
          <div className="sm:col-span-3">
            <button type="submit" name="intent" value="issue" className="btn-primary" disabled={navigation.state === "submitting"}>
              {t("giftCards.admin.issue")}
            </button>
          </div>
        </Form>
        {actionData?.issued && <PrintableCard issued={actionData.issued} locale={locale} />}
      </div>

      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3 rounded-xl border border-brand-100 bg-white p-4">
        <TextField label={t("giftCards.admin.search")} name="q" defaultValue={search} className="min-w-0 flex-1" />
        <button type="submit" className="btn-primary">
          {t("giftCards.admin.searchButton")}
        </button>
      </Form>

      {selected && (
        <div className="mt-6 rounded-xl border border-brand-100 bg-white p-4" data-testid="gift-card-detail">
          <h2 className="text-xl font-bold">
            {t("giftCards.admin.tail")} {selected.card.codeTail} · {formatMoney(selected.card.balanceCents, locale)} /{" "}
            {formatMoney(selected.card.initialCents, locale)}
          </h2>
          <p className="mt-1">
            {stateOf(selected.card)} · {t("giftCards.admin.expires")} {formatDate(selected.card.expiresAt, locale)}
          </p>
          <h3 className="mt-4 font-bold">{t("giftCards.admin.movements")}</h3>
          <ul className="mt-2 space-y-1">
            {selected.movements.map((movement) => (
              <li key={movement.id} className="flex flex-wrap gap-x-4">
                <span>{formatDate(movement.createdAt, locale)}</span>
                <span className="font-semibold">
                  {t(
                    `giftCards.admin.kinds.${movement.kind === "fund_contribution" && movement.amountCents <= 0 ? "fund_contribution_back" : movement.kind}`,
                  )}
                </span>
                <span>
                  {movement.amountCents > 0
                    ? `+${formatMoney(movement.amountCents, locale)}`
                    : movement.amountCents < 0
                      ? `−${formatMoney(-movement.amountCents, locale)}`
                      : ""}
                </span>
                {movement.orderId && (
                  <Link to={localizedHref(`/admin/ordini/${movement.orderId}`, locale)} className="text-brand-800 underline">
                    {t("giftCards.admin.order")}
                  </Link>
                )}
              </li>
            ))}
          </ul>
          {selected.card.isActive && (
            <Form method="post" className="mt-4">
              <input type="hidden" name="id" value={selected.card.id} />
              <button type="submit" name="intent" value="deactivate" className="btn-secondary">
                {t("giftCards.admin.deactivate")}
              </button>
            </Form>
          )}
        </div>
      )}

      {cards.length === 0 ? (
        <p className="mt-6">{t("giftCards.admin.empty")}</p>
      ) : (
        <AdminTable
          label={t("giftCards.admin.title")}
          className="mt-6"
          minWidth="min-w-[44rem]"
          columns={[
            { label: t("giftCards.admin.tail") },
            { label: t("giftCards.admin.origin") },
            { label: t("giftCards.admin.initial"), isNumeric: true },
            { label: t("giftCards.admin.balance"), isNumeric: true },
            { label: t("giftCards.admin.expires") },
            { label: t("giftCards.admin.state") },
          ]}
        >
          {cards.map((card) => (
            <tr key={card.id} className="border-b border-brand-100 align-top">
              <td className="p-2">
                <Link
                  to={`${localizedHref("/admin/carte-regalo", locale)}?carta=${card.id}${search ? `&q=${encodeURIComponent(search)}` : ""}`}
                  className="font-mono font-semibold text-brand-800 underline"
                >
                  …{card.codeTail}
                </Link>
                {card.recipientName && <span className="block text-muted">{card.recipientName}</span>}
              </td>
              <td className="p-2">{t(`giftCards.admin.origins.${card.origin}`)}</td>
              <td className="p-2 text-right whitespace-nowrap">{formatMoney(card.initialCents, locale)}</td>
              <td className="p-2 text-right whitespace-nowrap">{formatMoney(card.balanceCents, locale)}</td>
              <td className="p-2 whitespace-nowrap">{formatDate(card.expiresAt, locale)}</td>
              <td className="p-2">{stateOf(card)}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
