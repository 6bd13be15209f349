import { useTranslation } from "react-i18next";
import { Form, Link, redirect } from "react-router";
import { formatDate } from "#common/format.ts";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice } from "#app/ui/account-form-parts.tsx";
import { TextField } from "#app/ui/form-field.tsx";
import { GiftIcon } from "#app/ui/icons.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { findGiftListByCode, searchGiftListsByName } from "#server/gift-lists/gift-list-public.service.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/gift-list-search";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = {
  messages: ["giftLists.search", "giftLists.errors", "giftLists.types", "giftLists.public.for", "auth.fields"],
} satisfies MessagesHandle;

/** Both searches are GET forms: they work without JavaScript and their results can be shared. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const code = (url.searchParams.get("codice") ?? "").slice(0, 100);
  const name = (url.searchParams.get("nome") ?? "").slice(0, 100);
  let codeError: string | null = null;
  if (code.trim()) {
    const found = await findGiftListByCode(db, { code, clientIp: context.get(requestContext).clientIp, now: new Date() });
    if (found.ok) throw redirect(localizedHref(`/lista-nascita/${found.list.code}`, locale));
    codeError = `giftLists.errors.${found.error}`;
  }
  const results = name.trim() ? await searchGiftListsByName(db, { query: name }) : null;
  return { meta: getPageMetaTexts(locale, "giftLists.search"), code, name, codeError, results };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function GiftListSearchPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const { code, name, codeError, results } = loaderData;
  const action = localizedHref("/lista-nascita", locale);
  return (
    <>
      <PageHeader title={t("giftLists.search.title")}>
        <p>{t("giftLists.search.lead")}</p>
      </PageHeader>
      <div className="mx-auto max-w-5xl space-y-8 px-4 py-10">
        <div className="grid gap-6 md:grid-cols-2">
          <Form method="get" action={action} aria-labelledby="by-code-title" className="space-y-4 rounded-3xl bg-white p-6 shadow-card">
            <h2 id="by-code-title" className="text-xl font-bold">
              {t("giftLists.search.byCode")}
            </h2>
            <TextField
              label={t("giftLists.search.code")}
              name="codice"
              defaultValue={code}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={20}
              hint={t("giftLists.search.codeHint")}
              error={codeError ? t(codeError) : undefined}
            />
            <button type="submit" className="btn-primary">
              {t("giftLists.search.findCode")}
            </button>
          </Form>
          <Form method="get" action={action} aria-labelledby="by-name-title" className="space-y-4 rounded-3xl bg-white p-6 shadow-card" role="search">
            <h2 id="by-name-title" className="text-xl font-bold">
              {t("giftLists.search.byName")}
            </h2>
            <TextField label={t("giftLists.search.name")} name="nome" type="search" defaultValue={name} maxLength={100} />
            <button type="submit" className="btn-primary">
              {t("giftLists.search.findName")}
            </button>
          </Form>
        </div>

        {results && (
          <section aria-labelledby="results-title" className="space-y-4">
            <h2 id="results-title" className="text-2xl font-bold" aria-live="polite">
              {t("giftLists.search.results", { count: results.length })}
            </h2>
            {results.length === 0 ? (
              <AccountNotice kind="info">{t("giftLists.search.noResults")}</AccountNotice>
            ) : (
              <ul className="grid gap-4 sm:grid-cols-2">
                {results.map((list) => (
                  <li key={list.code} className="rounded-3xl bg-white p-5 shadow-card">
                    <Link to={localizedHref(`/lista-nascita/${list.code}`, locale)} className="link text-lg font-bold">
                      {list.title}
                    </Link>
                    <p className="text-muted">
                      {t(`giftLists.types.${list.type}`)} · {formatDate(list.eventDate, locale)}
                    </p>
                    <p>{t("giftLists.public.for", { names: list.celebratedNames })}</p>
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}

        <aside className="flex flex-wrap items-center gap-4 rounded-3xl bg-brand-50 p-6">
          <GiftIcon size={32} className="text-brand-700" />
          <p className="font-semibold">{t("giftLists.search.createOwn")}</p>
          <Link to={localizedHref("/crea-lista-nascita", locale)} className="btn-secondary">
            {t("giftLists.search.createCta")}
          </Link>
        </aside>
      </div>
    </>
  );
}
