import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { TextField } from "#app/ui/form-field.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { checkGiftCardBalance } from "#server/gift-cards/gift-card.service.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { Route } from "./+types/gift-card-balance";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["giftCards.balance", "giftCards.errors", "vouchers.purchase.link"] } satisfies MessagesHandle;

/** /carta-regalo: anyone checks a card's balance by its code (sent by POST: a code never sits in an address or a log). */
export function loader({ url }: Route.LoaderArgs) {
  return { meta: getPageMetaTexts(localeOfPath(url.pathname), "giftCards.balance") };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, context }: Route.ActionArgs) {
  const { db } = context.get(shopContext);
  const form = await request.formData();
  const typed = form.get("codice");
  const code = typeof typed === "string" ? typed.slice(0, 40) : "";
  const checked = await checkGiftCardBalance(db, { code, clientIp: context.get(requestContext).clientIp, now: new Date() });
  if (!checked.ok) return data({ code, error: checked.error, balance: null }, { status: checked.error === "throttled" ? 429 : 400 });
  const { balance } = checked;
  return { code, error: null, balance: { ...balance, expiresAt: balance.expiresAt.toISOString() } };
}

export default function GiftCardBalancePage({ actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const navigation = useNavigation();
  const balance = actionData?.balance ?? null;
  return (
    <>
      <PageHeader title={t("giftCards.balance.title")}>
        <p>{t("giftCards.balance.intro")}</p>
      </PageHeader>
      <div className="mx-auto max-w-xl space-y-6 px-4 py-10">
        <Form method="post" action={localizedHref("/carta-regalo", locale)} className="space-y-4 rounded-3xl bg-white p-6 shadow-card">
          <TextField
            label={t("giftCards.balance.codeLabel")}
            name="codice"
            defaultValue={actionData?.code ?? ""}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            required
            error={actionData?.error ? t(`giftCards.errors.${actionData.error}`) : undefined}
          />
          <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
            {t("giftCards.balance.check")}
          </button>
        </Form>
        {balance && (
          <div role="status" className="rounded-3xl bg-white p-6 shadow-card" data-testid="gift-card-balance">
            <p className="text-xl font-bold">
              {t("giftCards.balance.result", {
                amount: formatMoney(balance.balanceCents, locale),
                initial: formatMoney(balance.initialCents, locale),
              })}
            </p>
            <p className="mt-1">{t("giftCards.balance.validUntil", { date: formatDate(balance.expiresAt, locale) })}</p>
          </div>
        )}
        <p className="text-sm text-muted">{t("giftCards.balance.neverCash")}</p>
        <p>
          <Link to={localizedHref("/carta-regalo/acquista", locale)} className="btn-secondary">
            {t("vouchers.purchase.link")}
          </Link>
        </p>
      </div>
    </>
  );
}
