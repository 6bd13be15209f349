import { useTranslation } from "react-i18next";
import { data, redirect, useSearchParams } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice } from "#app/ui/account-form-parts.tsx";
import { GiftListForm } from "#app/ui/gift-list-form.tsx";
import { OwnGiftListCard, type OwnGiftList } from "#app/ui/gift-list-manage.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { listAddresses } from "#server/accounts/address.service.ts";
import { echoFields, formFields } from "#server/accounts/form-values.ts";
import { requireUser } from "#server/http/guards.ts";
import { italianDayOf } from "#common/shop-calendar.ts";
import { getCompletionCodes } from "#server/gift-lists/gift-list-completion.service.ts";
import { listInvitations, sendGiftListInvitations } from "#server/gift-lists/gift-list-invitations.service.ts";
import { switchGroupGift } from "#server/gift-lists/gift-list-group.service.ts";
import { listGiftThanks, markGiftThanked } from "#server/gift-lists/gift-list-thanks.service.ts";
import {
  createGiftList,
  deleteGiftList,
  listMyGiftLists,
  removeGiftListItem,
  setGiftListStatus,
  updateGiftList,
  updateGiftListItem,
} from "#server/gift-lists/gift-list.service.ts";
import { OwnerGiftListFunds } from "#app/ui/gift-list-funds.tsx";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { addGiftListFund, getOwnerFunds, removeGiftListFund } from "#server/vouchers/gift-list-fund.service.ts";
import { GiftListFundInput, parseVoucherForm } from "#server/vouchers/voucher.inputs.ts";
import { handleGiftListFilling, isFillingIntent } from "./gift-list-filling-action.server";
import { giftListSelectorIntent, handleGiftListSelector } from "./gift-list-selector-action.server";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/my-gift-lists";
import { giftListItemMessages } from "#app/ui/ui-messages.ts";

/** Confirmations after a change (Post/Redirect/Get: `?done=...`). */
const doneCodes = [
  "created",
  "updated",
  "deleted",
  "closed",
  "reopened",
  "itemUpdated",
  "itemRemoved",
  "invited",
  "thanked",
  "unthanked",
  "groupOn",
  "groupOff",
] as const;
type DoneCode = (typeof doneCodes)[number];

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = {
  messages: [...giftListItemMessages, "giftLists", "afterSales.giftList", "vouchers.fund", "vouchers.errors"],
} satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const { db, env } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const now = new Date();
  const [lists, addresses, thanks, completion] = await Promise.all([
    listMyGiftLists(db, { userId: user.id, locale, now }),
    listAddresses(db, user.id),
    listGiftThanks(db, { userId: user.id, locale, now }),
    getCompletionCodes(db, { userId: user.id, now }),
  ]);
  const withInvitations = await Promise.all(
    lists.map(async (list) => {
      const code = completion.get(list.id);
      return {
        ...list,
        invitations: (await listInvitations(db, { userId: user.id, giftListId: list.id })) ?? [],
        thanks: thanks.get(list.id) ?? [],
        // Her funds: who gave what, and the one card it went onto (its code made again with the shop's secret).
        funds: await getOwnerFunds(db, { giftListId: list.id, secret: resolveAuthSecret(env) }),
        completion: code
          ? {
              code: code.code,
              percent: code.percent,
              validFrom: code.validFrom,
              validUntil: code.validUntil,
              isUsed: code.isUsed,
              isExpired: code.validUntil.getTime() <= now.getTime(),
            }
          : null,
      };
    }),
  );
  const editId = url.searchParams.get("edit");
  const editing = editId === null ? null : (withInvitations.find((list) => list.id === editId) ?? null);
  // Someone else's list (or none): not found, and nothing about it is shown.
  if (editId !== null && !editing) throw data(null, { status: 404 });
  const sent = Number(url.searchParams.get("count") ?? 0);
  return {
    meta: getPageMetaTexts(locale, "giftLists"),
    lists: withInvitations.map(
      ({ ownerUserId: _owner, createdAt: _created, updatedAt: _updated, purchaseCount: _p, invitationCount: _i, ...list }) => list,
    ),
    editingId: editing?.id ?? null,
    addresses: addresses.map((address) => ({
      id: address.id,
      text: `${address.label ? `${address.label}: ` : ""}${address.street} ${address.houseNumber}, ${address.postcode} ${address.city} (${address.province})`,
    })),
    today: italianDayOf(now),
    done: doneCodes.find((code) => code === url.searchParams.get("done")) ?? null,
    sent: Number.isSafeInteger(sent) && sent > 0 && sent <= 50 ? sent : 0,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

const listFields = ["title", "type", "eventDate", "celebratedNames", "messageToGuests", "shippingAddressId", "visibility"];

export async function action({ request, url, context }: Route.ActionArgs) {
  // Every action checks who is asking itself: the loader's check protects nothing here.
  const user = await requireUser(context, request);
  const { db, publicUrl } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const fields = formFields(form);
  const intent = fields.intent ?? "";
  const listId = fields.giftListId;
  const path = localizedHref("/crea-lista-nascita", locale);
  const done = (code: DoneCode, extra = "") => redirect(`${path}?done=${code}${extra}`, { status: 303 });
  const refused = (errors: Partial<Record<string, string>>, echo: string[] = [], more: Record<string, unknown> = {}) =>
    data({ intent, listId: listId ?? null, errors, values: echoFields(form, echo), ...more }, { status: 400 });
  const missing = () => {
    throw data(null, { status: 404 });
  };
  const now = new Date();

  if (isFillingIntent(intent)) return handleGiftListFilling(context.get(shopContext), { userId: user.id, intent, form, locale });
  // "Add to my list" from the cards and the quick view while a list is chosen: the product page's rule and answers.
  if (intent === giftListSelectorIntent)
    return handleGiftListSelector(context.get(shopContext), context, request, { locale, form, fallbackPath: path });

  switch (intent) {
    case "fund-add": {
      const parsed = parseVoucherForm(GiftListFundInput, form);
      if (!parsed.ok) return refused(parsed.errors);
      const result = await addGiftListFund(db, { userId: user.id, giftListId: listId, input: parsed.input, now });
      if (result.ok) return redirect(`${path}#funds-${listId}`, { status: 303 });
      if (result.error === "not-found") return missing();
      return refused({ form: `vouchers.fund.errors.${result.error}` });
    }
    case "fund-remove": {
      const result = await removeGiftListFund(db, { userId: user.id, giftListId: listId, fundId: Number(fields.fundId) });
      if (result.ok) return redirect(`${path}#funds-${listId}`, { status: 303 });
      if (result.error === "not-found") return missing();
      return refused({ form: `vouchers.fund.errors.${result.error}` });
    }
    case "create": {
      const result = await createGiftList(db, { userId: user.id, input: fields, now });
      return result.ok ? done("created") : refused(result.errors, listFields);
    }
    case "update": {
      const result = await updateGiftList(db, { userId: user.id, giftListId: listId, input: fields, now });
      if (result.ok) return done("updated");
      if ("error" in result) return missing();
      return refused(result.errors, listFields);
    }
    case "delete": {
      const result = await deleteGiftList(db, { userId: user.id, giftListId: listId });
      if (result.ok) return done("deleted");
      if (result.error === "not-found") return missing();
      return refused({ form: `giftLists.errors.${result.error}` });
    }
    case "close":
    case "reopen": {
      const result = await setGiftListStatus(db, { userId: user.id, giftListId: listId, status: intent === "close" ? "closed" : "open" });
      return result.ok ? done(intent === "close" ? "closed" : "reopened") : missing();
    }
    case "item-update": {
      const result = await updateGiftListItem(db, { userId: user.id, input: fields });
      if (result.ok) return done("itemUpdated");
      if ("error" in result && result.error === "not-found") return missing();
      const errors = "errors" in result ? result.errors : { quantity: `giftLists.errors.${result.error}` };
      return refused(errors.itemId ? { form: "giftLists.errors.not-found" } : errors, [], { itemId: fields.itemId ?? null });
    }
    case "item-remove": {
      const result = await removeGiftListItem(db, { userId: user.id, itemId: fields.itemId });
      if (result.ok) return done("itemRemoved");
      if (result.error === "not-found") return missing();
      return refused({ form: `giftLists.errors.${result.error}` }, [], { itemId: fields.itemId ?? null });
    }
    case "group-gift": {
      const result = await switchGroupGift(db, { userId: user.id, input: fields, now });
      if (result.ok) return done(result.isGroupGift ? "groupOn" : "groupOff");
      if (result.error === "not-found") return missing();
      return refused({ form: `giftLists.errors.${result.error}` }, [], { itemId: fields.itemId ?? null });
    }
    case "thank": {
      const result = await markGiftThanked(db, { userId: user.id, input: fields, now });
      if (!result.ok) return missing();
      return done(result.thanked ? "thanked" : "unthanked");
    }
    case "invite": {
      const result = await sendGiftListInvitations(db, {
        userId: user.id,
        giftListId: listId,
        input: fields,
        locale,
        publicUrl,
        inviterName: user.name,
      });
      if (result.ok) return done("invited", `&count=${result.sent}`);
      if ("error" in result) return missing();
      return refused(result.errors, ["emails"], { bad: result.bad ?? [] });
    }
  }
  return refused({ form: "giftLists.errors.invalid" });
}

export default function MyGiftListsPage({ loaderData, actionData: answer }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const root = useRootData();
  const [searchParams] = useSearchParams();
  const { lists, editingId, addresses, today, done, sent } = loaderData;
  const editing = (lists.find((list) => list.id === editingId) ?? null) as OwnGiftList | null;
  // The cards' "add to my list" answers their fetcher, never this page: only the page's own forms have an intent.
  const actionData = answer && "intent" in answer ? answer : undefined;
  const showDone = done && !actionData && searchParams.get("done") === done;
  const formState = actionData && (actionData.intent === "create" || actionData.intent === "update") ? actionData : undefined;
  const stateFor = (listId: string, ...intents: string[]) =>
    actionData && intents.includes(actionData.intent) && actionData.listId === listId ? actionData : undefined;
  const itemStateFor = (list: OwnGiftList) => {
    if (!actionData || !(actionData.intent === "item-update" || actionData.intent === "item-remove" || actionData.intent === "group-gift"))
      return undefined;
    const itemId = "itemId" in actionData ? (actionData.itemId as string | null) : null;
    return list.items.some((item) => item.id === itemId) ? { ...actionData, itemId: itemId ?? undefined } : undefined;
  };
  return (
    <>
      <PageHeader title={t("giftLists.title")}>
        <p>{t("giftLists.lead")}</p>
      </PageHeader>
      <div className="mx-auto max-w-5xl space-y-8 px-4 py-10">
        {showDone && (
          <AccountNotice kind="success">
            {done === "invited"
              ? t("giftLists.mine.done.invited", { count: sent })
              : done === "thanked" || done === "unthanked"
                ? t(`giftLists.thanks.done.${done}`)
                : t(`giftLists.mine.done.${done}`)}
          </AccountNotice>
        )}
        {(actionData?.intent === "delete" || actionData?.intent === "fill-start") && actionData.errors.form && (
          <AccountNotice kind="error">{t(actionData.errors.form)}</AccountNotice>
        )}
        {lists.length === 0 && <p className="rounded-3xl bg-white p-6 text-muted shadow-card">{t("giftLists.mine.empty")}</p>}
        {(lists as (OwnGiftList & { funds: (typeof lists)[number]["funds"] })[]).map((list) => (
          <OwnGiftListCard
            key={list.id}
            list={list}
            publicUrl={root?.publicUrl ?? ""}
            locale={locale}
            inviteState={stateFor(list.id, "invite")}
            itemState={itemStateFor(list)}
          >
            <OwnerGiftListFunds
              funds={list.funds}
              giftListId={list.id}
              action={localizedHref("/crea-lista-nascita", locale)}
              locale={locale}
              errors={actionData && actionData.intent.startsWith("fund-") && actionData.listId === list.id ? actionData.errors : undefined}
            />
          </OwnGiftListCard>
        ))}
        <GiftListForm
          key={`${editingId ?? "new"}:${lists.length}:${done ?? ""}`}
          editing={editing}
          addresses={addresses}
          state={formState}
          today={today}
          locale={locale}
        />
      </div>
    </>
  );
}
