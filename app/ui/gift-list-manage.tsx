import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { formatDate } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import { CompletionCodePanel, GiftThanksSection, type CompletionCodeView } from "./gift-list-thanks";
import { AccountNotice, SubmitButton, useFormWithProblems, type FormErrors } from "./account-form-parts";
import { TextField } from "./form-field";
import { GroupGiftProgress } from "./gift-list-group";
import { GiftListItemDetails, type GiftListItemBase } from "./gift-list-item-details";
import { ProductImage } from "./product-image";
import type { GroupGiftProgress as GroupGiftRound } from "#server/gift-lists/gift-list-group.ts";
import type { GiftThanksRow } from "#server/gift-lists/gift-list-thanks.service.ts";

/** The owner's view of a list as JSON from the loader. */
export type OwnGiftList = {
  id: string;
  code: string;
  title: string;
  type: "nascita" | "compleanno" | "battesimo";
  eventDate: string;
  celebratedNames: string;
  messageToGuests: string;
  shippingAddressId: number | null;
  visibility: "public" | "code_only";
  status: "open" | "closed";
  canDelete: boolean;
  items: (GiftListItemBase & { quantityBought: number; group: GroupGiftRound | null })[];
  invitations: { email: string; createdAt: string | Date }[];
  /** Who gave what (thank-you tracker) and the completion discount once its window opened. */
  thanks?: GiftThanksRow[];
  completion?: CompletionCodeView | null;
};

export type AddressChoice = { id: number; text: string };

export type FormState = { errors?: FormErrors; values?: Partial<Record<string, string>>; bad?: string[] } | undefined;

function HiddenIntent({ intent, listId }: { intent: string; listId: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="giftListId" value={listId} />
    </>
  );
}

/** One of my lists: its facts, its actions, its items with wished and bought, and its invitations. */
export function OwnGiftListCard({
  list,
  publicUrl,
  locale,
  inviteState,
  itemState,
  children,
}: {
  list: OwnGiftList;
  publicUrl: string;
  locale: Locale;
  inviteState: FormState;
  itemState: (FormState & { itemId?: string }) | undefined;
  /** More of the list's own parts (its cash funds), after its own. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const action = localizedHref("/crea-lista-nascita", locale);
  const publicPath = localizedHref(`/lista-nascita/${list.code}`, locale);
  const headingId = `list-${list.code}`;
  return (
    <article aria-labelledby={headingId} className="space-y-6 rounded-3xl bg-white p-6 shadow-card sm:p-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 id={headingId} className="text-2xl font-bold break-words">
            {list.title}
          </h2>
          <p className="text-muted">
            {t(`giftLists.types.${list.type}`)} · {t("giftLists.mine.eventOn", { date: formatDate(list.eventDate, locale) })} · {list.celebratedNames}
          </p>
          <p className="mt-1 text-sm">
            {t("giftLists.fields.code")}: <strong className="font-mono text-base tracking-widest">{list.code}</strong> ·{" "}
            {t(`giftLists.visibility.${list.visibility}`)}
          </p>
        </div>
        <p
          className={`rounded-full px-3 py-1 text-sm font-semibold ${list.status === "open" ? "bg-brand-50 text-brand-900" : "bg-slate-200 text-slate-800"}`}
        >
          {t(`giftLists.status.${list.status}`)}
        </p>
      </header>
      <p className="text-sm break-all">
        <span className="font-semibold">{t("giftLists.mine.share")}: </span>
        <Link to={publicPath} className="link">
          {`${publicUrl}${publicPath}`}
        </Link>
      </p>
      {list.status === "open" && (
        <Form method="post" action={action} className="flex flex-wrap items-center gap-3 rounded-2xl bg-brand-50 p-4">
          <HiddenIntent intent="fill-start" listId={list.id} />
          <button type="submit" className="btn-primary px-5">
            {t("giftListFilling.start")}
            <span className="sr-only"> {list.title}</span>
          </button>
          <p className="min-w-48 flex-1 text-sm">{t("giftListFilling.startHint")}</p>
        </Form>
      )}
      <div className="flex flex-wrap gap-2">
        <Link to={`?edit=${list.id}#gift-list-form`} className="btn-secondary px-4 py-1.5">
          {t("giftLists.mine.edit")}
          <span className="sr-only"> {list.title}</span>
        </Link>
        <Form method="post" action={action}>
          <HiddenIntent intent={list.status === "open" ? "close" : "reopen"} listId={list.id} />
          <button type="submit" className="btn-secondary px-4 py-1.5">
            {t(list.status === "open" ? "giftLists.mine.close" : "giftLists.mine.reopen")}
            <span className="sr-only"> {list.title}</span>
          </button>
        </Form>
        {list.canDelete && (
          <Form
            method="post"
            action={action}
            onSubmit={(event) => {
              if (!window.confirm(t("giftLists.mine.deleteConfirm", { title: list.title }))) event.preventDefault();
            }}
          >
            <HiddenIntent intent="delete" listId={list.id} />
            <button type="submit" className="btn px-4 py-1.5 text-coral-700 hover:bg-coral-50">
              {t("giftLists.mine.delete")}
              <span className="sr-only"> {list.title}</span>
            </button>
          </Form>
        )}
      </div>

      <section aria-labelledby={`${headingId}-items`}>
        <h3 id={`${headingId}-items`} className="mb-3 text-xl font-bold">
          {t("giftLists.mine.items")}
        </h3>
        {itemState?.errors?.form && <AccountNotice kind="error">{t(itemState.errors.form)}</AccountNotice>}
        {list.items.length > 0 && <p className="mb-2 text-sm text-muted">{t("giftLists.group.ownerHint")}</p>}
        {list.items.length === 0 ? (
          <p className="text-muted">
            {t("giftLists.mine.itemsEmpty")}{" "}
            <Link to={localizedHref("/shop", locale)} className="link">
              {t("giftLists.mine.goShopping")}
            </Link>
          </p>
        ) : (
          <ul className="divide-y divide-brand-100">
            {list.items.map((item) => {
              const quantityId = `qty-${item.id}`;
              const quantityError = itemState?.itemId === item.id && itemState.errors?.quantity ? t(itemState.errors.quantity) : undefined;
              return (
                <li key={item.id} className="flex flex-wrap items-start gap-4 py-4">
                  <div className="w-20 shrink-0 overflow-hidden rounded-xl bg-brand-50">
                    <ProductImage image={item.image} sizes="80px" fallbackWidth={160} />
                  </div>
                  <div className="min-w-0 flex-1 basis-48">
                    <Link to={localizedHref(`/product/${item.productId}`, locale)} className="link font-semibold">
                      {item.name}
                    </Link>
                    <GiftListItemDetails item={item} />
                    {item.arrivesAfterEvent && <p className="text-sm font-semibold text-coral-700">{t("giftLists.mine.preorderLate")}</p>}
                    <dl className="mt-1 flex flex-wrap gap-x-4 text-sm">
                      <div className="flex gap-1">
                        <dt>{t("giftLists.mine.wished")}:</dt>
                        <dd className="font-semibold">{item.quantityWished}</dd>
                      </div>
                      <div className="flex gap-1">
                        <dt>{t("giftLists.mine.bought")}:</dt>
                        <dd className="font-semibold">{item.quantityBought}</dd>
                      </div>
                      <div className="flex gap-1">
                        <dt>{t("giftLists.mine.stillNeeded")}:</dt>
                        <dd className="font-semibold">{item.stillNeeded}</dd>
                      </div>
                    </dl>
                    {item.group && (
                      <div className="mt-2 max-w-sm">
                        <p className="mb-1 inline-block rounded-full bg-sun-50 px-3 py-1 text-sm font-semibold">{t("giftLists.group.badge")}</p>
                        <GroupGiftProgress group={item.group} locale={locale} />
                      </div>
                    )}
                  </div>
                  <div className="flex flex-wrap items-end gap-2">
                    <Form method="post" action={action} className="flex items-end gap-2">
                      <input type="hidden" name="intent" value="item-update" />
                      <input type="hidden" name="itemId" value={item.id} />
                      <div>
                        <label htmlFor={quantityId} className="field-label">
                          {t("giftLists.mine.quantity")}
                          <span className="sr-only"> {item.name}</span>
                        </label>
                        <input
                          id={quantityId}
                          name="quantity"
                          type="number"
                          inputMode="numeric"
                          min={Math.max(1, item.quantityBought)}
                          max={99}
                          defaultValue={item.quantityWished}
                          aria-invalid={quantityError ? true : undefined}
                          aria-describedby={quantityError ? `${quantityId}-error` : undefined}
                          className="field-input w-24"
                        />
                      </div>
                      <button type="submit" className="btn-secondary px-4 py-2">
                        {t("giftLists.mine.update")}
                        <span className="sr-only"> {item.name}</span>
                      </button>
                    </Form>
                    {(item.group || item.stillNeeded > 0) && (
                      <Form method="post" action={action}>
                        <input type="hidden" name="intent" value="group-gift" />
                        <input type="hidden" name="itemId" value={item.id} />
                        <input type="hidden" name="groupGift" value={item.group ? "off" : "on"} />
                        <button type="submit" className="btn-secondary px-4 py-2">
                          {t(item.group ? "giftLists.group.ownerClose" : "giftLists.group.ownerOpen")}
                          <span className="sr-only"> {item.name}</span>
                        </button>
                      </Form>
                    )}
                    {item.quantityBought === 0 && (
                      <Form method="post" action={action}>
                        <input type="hidden" name="intent" value="item-remove" />
                        <input type="hidden" name="itemId" value={item.id} />
                        <button type="submit" className="btn px-4 py-2 text-coral-700 hover:bg-coral-50">
                          {t("giftLists.mine.remove")}
                          <span className="sr-only"> {item.name}</span>
                        </button>
                      </Form>
                    )}
                    {quantityError && (
                      <p id={`${quantityId}-error`} className="field-error basis-full">
                        {quantityError}
                      </p>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {list.completion && <CompletionCodePanel completion={list.completion} locale={locale} />}
      {list.thanks && <GiftThanksSection listCode={list.code} thanks={list.thanks} locale={locale} />}
      <InviteSection list={list} state={inviteState} locale={locale} />
      {children}
    </article>
  );
}

function InviteSection({ list, state, locale }: { list: OwnGiftList; state: FormState; locale: Locale }) {
  const { t } = useTranslation();
  const formRef = useFormWithProblems(state?.errors);
  const headingId = `invite-${list.code}`;
  const emailsError = state?.errors?.emails ? t(state.errors.emails, { bad: (state.bad ?? []).join(", ") }) : undefined;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-brand-50/60 p-4 sm:p-6">
      <h3 id={headingId} className="mb-3 text-xl font-bold">
        {t("giftLists.mine.invite.title")}
      </h3>
      {list.status === "open" && (
        <Form ref={formRef} method="post" action={localizedHref("/crea-lista-nascita", locale)} noValidate className="space-y-3">
          <HiddenIntent intent="invite" listId={list.id} />
          <TextField
            multiline
            rows={3}
            label={t("giftLists.mine.invite.emails")}
            name="emails"
            hint={t("giftLists.mine.invite.emailsHint")}
            defaultValue={state?.values?.emails}
            error={emailsError}
          />
          <SubmitButton intent="invite" busyLabel={t("giftLists.mine.invite.sending")}>
            {t("giftLists.mine.invite.send")}
          </SubmitButton>
        </Form>
      )}
      <h4 className="mt-5 mb-2 font-semibold">{t("giftLists.mine.invite.sentTitle")}</h4>
      {list.invitations.length === 0 ? (
        <p className="text-sm text-muted">{t("giftLists.mine.invite.none")}</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {list.invitations.map((invitation, index) => (
            <li key={`${invitation.email}-${index}`} className="flex flex-wrap justify-between gap-2">
              <span className="break-all">{invitation.email}</span>
              <span className="text-muted">{t("giftLists.mine.invite.sentOn", { date: formatDate(invitation.createdAt, locale) })}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
