import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localizedHref, localeOfPath, type Locale } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice } from "#app/ui/account-form-parts.tsx";
import { LoyaltyCardBarcode } from "#app/ui/loyalty-card-barcode.tsx";
import { LoyaltyHistoryTable } from "#app/ui/loyalty-history.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { PrivacyConsentField } from "#app/ui/form-field.tsx";
import { formFields } from "#server/accounts/form-values.ts";
import { requireUser } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { formatCardNumber } from "#common/loyalty-card-number.ts";
import { joinLoyaltyCard } from "#server/loyalty/loyalty.service.ts";
import { getLoyaltyCardView } from "#server/loyalty/loyalty-view.service.ts";
import type { Route } from "./+types/loyalty-card";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["loyalty", "auth.fields"] } satisfies MessagesHandle;

/** /carta-fedelta: her card to show at the till (number, barcode), balance and history; or the choice to join. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const card = await getLoyaltyCardView(db, user.id);
  return {
    meta: getPageMetaTexts(locale, "loyalty.page"),
    locale,
    card: card ? { ...card, printedNumber: formatCardNumber(card.number) } : null,
    joined: url.searchParams.get("done") === "joined",
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  // Every action checks who is asking itself: the loader's check protects nothing here.
  const user = await requireUser(context, request);
  const services = context.get(shopContext);
  const fields = formFields(await request.formData());
  if (fields.intent !== "join") return data({ error: "invalid" as const }, { status: 400 });
  const result = await joinLoyaltyCard(services.db, { userId: user.id, consent: fields.privacy === "on", now: shopNowOf(services, request) });
  if (!result.ok && result.error !== "already-joined") return data({ error: result.error }, { status: 400 });
  return redirect(`${localizedHref("/carta-fedelta", localeOfPath(url.pathname))}?done=joined`);
}

export default function LoyaltyCardPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, card, joined } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PageHeader title={t("loyalty.page.title")} />
      {card ? (
        <>
          {joined && (
            <div className="mt-4">
              <AccountNotice kind="success">{t("loyalty.page.joined")}</AccountNotice>
            </div>
          )}
          <section aria-labelledby="loyalty-card-title" className="mt-6 rounded-3xl bg-white p-5 shadow-card sm:p-6">
            <h2 id="loyalty-card-title" className="text-xl font-bold">
              {t("loyalty.page.showAtTill")}
            </h2>
            <div className="mt-4 rounded-2xl border-2 border-brand-200 p-4">
              <LoyaltyCardBarcode number={card.number} label={t("loyalty.page.barcodeLabel", { number: card.printedNumber })} />
              <p className="mt-2 text-center font-mono text-2xl tracking-wider" data-testid="loyalty-card-number">
                {card.printedNumber}
              </p>
            </div>
            <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
              <dt className="font-semibold">{t("loyalty.card.balance")}</dt>
              <dd data-testid="loyalty-balance">{t("loyalty.points", { count: card.balance })}</dd>
              <dt className="font-semibold">{t("loyalty.page.worth")}</dt>
              <dd>{formatMoney(Math.floor(card.balance / card.rules.stepPoints) * card.rules.stepCents, locale)}</dd>
              {card.nextExpiry && (
                <>
                  <dt className="font-semibold">{t("loyalty.page.nextExpiry")}</dt>
                  <dd>{t("loyalty.page.nextExpiryText", { count: card.nextExpiry.points, date: formatDate(card.nextExpiry.on, locale) })}</dd>
                </>
              )}
            </dl>
            <p className="mt-4 text-sm text-muted">
              {t("loyalty.page.rules", {
                perEuro: card.rules.pointsPerEuro,
                step: card.rules.stepPoints,
                value: formatMoney(card.rules.stepCents, locale),
                months: card.rules.expiryMonths,
              })}
            </p>
            <p className="mt-2 text-sm text-muted">{t("loyalty.page.exclusions")}</p>
          </section>
          <section aria-labelledby="loyalty-history-title" className="mt-6">
            <h2 id="loyalty-history-title" className="text-xl font-bold">
              {t("loyalty.history.title")}
            </h2>
            {card.history.length === 0 ? (
              <p className="mt-2">{t("loyalty.history.empty")}</p>
            ) : (
              <LoyaltyHistoryTable rows={card.history} locale={locale} showActor={false} />
            )}
          </section>
        </>
      ) : (
        <JoinCard locale={locale} error={actionData?.error ?? null} />
      )}
      <p className="mt-8">
        <Link to={localizedHref("/my-account", locale)} className="link">
          {t("loyalty.page.backToAccount")}
        </Link>
      </p>
    </div>
  );
}

function JoinCard({ locale, error }: { locale: Locale; error: string | null }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="loyalty-join-title" className="mt-6 rounded-3xl bg-white p-5 shadow-card sm:p-6">
      <h2 id="loyalty-join-title" className="text-xl font-bold">
        {t("loyalty.join.title")}
      </h2>
      <p className="mt-2">{t("loyalty.join.intro")}</p>
      <h3 className="mt-4 font-bold">{t("loyalty.join.privacyTitle")}</h3>
      <p className="mt-1 text-sm">{t("loyalty.join.privacyText")}</p>
      <Form method="post" className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="join" />
        <PrivacyConsentField
          label={t("loyalty.join.consent")}
          linkText={t("loyalty.join.privacyLink")}
          privacyHref={localizedHref("/privacy", locale)}
          error={error ? t(`loyalty.errors.${error}`) : undefined}
        />
        <button type="submit" className="btn-primary">
          {t("loyalty.join.submit")}
        </button>
      </Form>
    </section>
  );
}
