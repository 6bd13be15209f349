import crypto from "node:crypto";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import { formatDate } from "#common/format.ts";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice } from "#app/ui/account-form-parts.tsx";
import { TextField } from "#app/ui/form-field.tsx";
import type { ContributionState } from "#app/ui/gift-list-group.tsx";
import { PublicGiftListItemCard } from "#app/ui/gift-list-public-item.tsx";
import { GiftIcon, StoreIcon, TruckIcon } from "#app/ui/icons.tsx";
import { echoFields, formFields, formText } from "#server/accounts/form-values.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { handleGiftListCartAdd } from "./gift-list-cart-action.server";
import { contributeToGroupGift } from "#server/gift-lists/gift-list-group.service.ts";
import { getCartGiftNote, getPublicGiftList, setCartGiftNote } from "#server/gift-lists/gift-list-public.service.ts";
import { giftListLimits } from "#server/gift-lists/gift-list.inputs.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { takesCardPayments } from "#server/payments/payment-provider.ts";
import { cardPaymentReturnUrls, startCardPayment } from "#server/payments/payment.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/gift-list";
import { giftListItemMessages } from "#app/ui/ui-messages.ts";
import { PublicGiftListFunds } from "#app/ui/gift-list-funds.tsx";
import { listGiftListFunds } from "#server/vouchers/gift-list-fund.service.ts";

const contributionFields = ["amount", "giverName", "email", "giftMessage"];

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    ...giftListItemMessages,
    "vouchers.fund",
    "giftLists.public",
    "giftLists.group",
    "giftLists.errors",
    "giftLists.types",
    "giftLists.search.title",
  ],
} satisfies MessagesHandle;

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const cartId = readCartRequest(request, services).cartId;
  const found = await getPublicGiftList(services.db, {
    code: params.codice,
    clientIp: context.get(requestContext).clientIp,
    locale,
    now: shopNowOf(services, request),
    cartId,
  });
  if (!found.ok) {
    if (found.error === "throttled") {
      const t = getTranslator(locale);
      return data(
        { list: null, note: null, throttled: true, meta: { title: t("giftLists.search.title"), description: t("giftLists.errors.throttled") } },
        { status: 429 },
      );
    }
    throw data(null, { status: 404 });
  }
  const { list } = found;
  // A code typed in lower case: the one address of the list.
  if (params.codice !== list.code) throw redirect(localizedHref(`/lista-nascita/${list.code}`, locale), 301);
  const note = await getCartGiftNote(services.db, cartId);
  const funds = (await listGiftListFunds(services.db, [list.id])).get(list.id) ?? [];
  const t = getTranslator(locale);
  return {
    list,
    funds,
    note: note?.giftListId === list.id ? { giverName: note.giverName ?? "", giftMessage: note.giftMessage ?? "" } : null,
    throttled: false,
    limits: { giverName: giftListLimits.giverName, giftMessage: giftListLimits.giftMessage },
    // The same contribution form sent twice (a double click) gives one order.
    contributionKey: crypto.randomUUID(),
    // Contributions are paid by card only: without a card provider the form is not offered.
    contributionsOpen: takesCardPayments(services),
    meta: { title: list.title, description: t("giftLists.public.metaDescription", { title: list.title }) },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [...pageMeta(matches, loaderData?.meta), { name: "robots", content: "noindex" }];

/** The gift note form's refusal, also the answer to an unknown intent. */
type NoteRefusal = { errors: Partial<Record<string, string>>; values: Record<string, string> };

export async function action({ request, params, url, context }: Route.ActionArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "add") return handleGiftListCartAdd(services, request, { code: params.codice, locale, form });
  if (intent === "note") {
    const cartId = readCartRequest(request, services).cartId;
    const result = await setCartGiftNote(services.db, { cartId, input: formFields(form) });
    if (result.ok) return redirect(`${localizedHref(`/lista-nascita/${params.codice}`, locale)}?nota=1#gift-note`, { status: 303 });
    return data<NoteRefusal>({ errors: result.errors, values: echoFields(form, ["giverName", "giftMessage"]) }, { status: 400 });
  }
  if (intent === "contribute") {
    const user = await getSessionUser(context, request);
    const result = await contributeToGroupGift(services.db, {
      code: params.codice,
      input: formFields(form),
      locale,
      now: shopNowOf(services, request),
      userId: user?.id ?? null,
      cardPayments: takesCardPayments(services),
    });
    if (result.ok) {
      // Paid by card only (docs/decisions/0021-group-gifting.md): straight to the provider's page.
      const payment = await startCardPayment(services, { orderId: result.orderId, locale });
      return redirect(
        payment.ok ? payment.redirectUrl : `${cardPaymentReturnUrls(services, result.orderId, locale).orderHref}&pagamento=non-disponibile`,
        303,
      );
    }
    const refusal =
      "errors" in result
        ? { errors: result.errors, leftCents: result.leftCents, minCents: result.minCents }
        : { errors: { form: `giftLists.errors.${result.error}` }, leftCents: result.leftCents ?? 0, minCents: result.minCents ?? 0 };
    return data(
      { intent: "contribute" as const, itemId: formText(form, "itemId"), ...refusal, values: echoFields(form, contributionFields) },
      { status: 400 },
    );
  }
  return data<NoteRefusal>({ errors: { form: "giftLists.errors.invalid" }, values: {} }, { status: 400 });
}

export default function GiftListPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const [searchParams] = useSearchParams();
  const { list, note } = loaderData;
  if (!list || !("limits" in loaderData)) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <AccountNotice kind="error">{t("giftLists.errors.throttled")}</AccountNotice>
      </div>
    );
  }
  const { limits } = loaderData;
  // The note form's answer (the "give this" buttons are fetchers: their answers become toasts).
  const noteState = actionData && "values" in actionData && !("intent" in actionData) ? actionData : undefined;
  const contributionState =
    actionData && "intent" in actionData && actionData.intent === "contribute"
      ? (actionData as unknown as ContributionState & { itemId: string })
      : undefined;
  const errors = noteState?.errors;
  const error = (field: string) => (errors?.[field] ? t(errors[field]) : undefined);
  return (
    <>
      <div className="bg-linear-to-br from-brand-50 to-coral-50">
        <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
          <p className="flex items-center gap-2 font-semibold text-brand-800">
            <GiftIcon size={22} />
            {t("giftLists.public.eventOn", { type: t(`giftLists.types.${list.type}`), date: formatDate(list.eventDate, locale) })}
          </p>
          <h1 className="mt-2 text-3xl font-extrabold tracking-tight break-words sm:text-4xl">{list.title}</h1>
          <p className="mt-2 text-xl">{t("giftLists.public.for", { names: list.celebratedNames })}</p>
          {list.messageToGuests && <p className="mt-4 max-w-3xl text-lg whitespace-pre-line text-muted">{list.messageToGuests}</p>}
          <p className="mt-4 text-sm">{t("giftLists.public.code", { code: list.code })}</p>
          <p className="mt-2 flex items-center gap-2 text-sm text-muted">
            {list.isCollection ? <StoreIcon size={18} /> : <TruckIcon size={18} />}
            {t(list.isCollection ? "giftLists.public.collection" : "giftLists.public.shipped")}
          </p>
        </div>
      </div>
      <div className="mx-auto max-w-6xl space-y-8 px-4 py-10">
        {!list.isOpen && <AccountNotice kind="info">{t("giftLists.public.closed")}</AccountNotice>}
        <section aria-labelledby="gifts-title">
          <h2 id="gifts-title" className="mb-6 text-2xl font-bold">
            {t("giftLists.public.itemsTitle")}
          </h2>
          {list.items.length === 0 ? (
            <p className="text-muted">{t("giftLists.public.empty")}</p>
          ) : (
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {list.items.map((item) => (
                <li key={item.id}>
                  <PublicGiftListItemCard
                    item={item}
                    code={list.code}
                    contribution={
                      item.group && list.isOpen
                        ? {
                            idempotencyKey: loaderData.contributionKey,
                            state: contributionState?.itemId === item.id ? contributionState : undefined,
                            open: loaderData.contributionsOpen,
                          }
                        : undefined
                    }
                  />
                </li>
              ))}
            </ul>
          )}
        </section>

        {loaderData.funds.length > 0 && (
          <PublicGiftListFunds
            funds={loaderData.funds}
            isOpen={list.isOpen}
            returnTo={localizedHref(`/lista-nascita/${list.code}`, locale)}
            locale={locale}
          />
        )}

        {note && (
          <section id="gift-note" aria-labelledby="gift-note-title" className="scroll-mt-4 rounded-3xl bg-white p-6 shadow-card sm:p-8">
            <h2 id="gift-note-title" className="text-2xl font-bold">
              {t("giftLists.public.noteTitle")}
            </h2>
            <p className="mt-1 mb-4 text-muted">{t("giftLists.public.noteLead")}</p>
            {searchParams.get("nota") === "1" && !noteState && <AccountNotice kind="success">{t("giftLists.public.noteSaved")}</AccountNotice>}
            {errors?.form && <AccountNotice kind="error">{t(errors.form)}</AccountNotice>}
            <Form method="post" action={`${localizedHref(`/lista-nascita/${list.code}`, locale)}`} noValidate className="mt-4 space-y-4">
              <input type="hidden" name="intent" value="note" />
              <TextField
                label={t("giftLists.public.giverName")}
                name="giverName"
                required
                maxLength={limits.giverName}
                autoComplete="name"
                defaultValue={noteState?.values.giverName ?? note.giverName}
                error={error("giverName")}
              />
              <TextField
                multiline
                rows={3}
                label={t("giftLists.public.giftMessage")}
                name="giftMessage"
                maxLength={limits.giftMessage}
                defaultValue={noteState?.values.giftMessage ?? note.giftMessage}
                error={error("giftMessage")}
              />
              <div className="flex flex-wrap gap-3">
                <button type="submit" className="btn-primary">
                  {t("giftLists.public.saveNote")}
                </button>
                <Link to={localizedHref("/cart", locale)} className="btn-secondary">
                  {t("giftLists.public.goToCart")}
                </Link>
              </div>
            </Form>
          </section>
        )}
      </div>
    </>
  );
}
