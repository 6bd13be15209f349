/**
 * Filling a gift list while browsing (docs/decisions/0046): the bar with the chosen list's running total,
 * and the "add to the list" form of cards and the quick view. Both post to the owner's page
 * (/crea-lista-nascita), whose action applies the product page's rule (addProductToGiftList).
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useFetcher, useLocation } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import type { GiftListSelectorAnswer } from "#app/routes/gift-lists/gift-list-selector-action.server.ts";
import { FetcherMarker } from "./cart-toasts";
import { CloseIcon, GiftIcon } from "./icons";
import { Price } from "./price";
import { useToast } from "./toaster";
import { usePageT } from "./use-shared-texts";

export type GiftListFillingView = NonNullable<ReturnType<typeof useGiftListFilling>>;

/** The list the signed-in owner is filling, from the root loader; null when none is chosen. */
export function useGiftListFilling() {
  return useRootData()?.giftListFilling ?? null;
}

/**
 * At the bottom of the screen on every page while a list is chosen: which one, its products, units and value, a
 * way back and a way out, always in sight while the owner scrolls a listing. Fixed, so it moves nothing when it
 * arrives with her personal part after load (docs/decisions/0112); its height is app.css's
 * `--filling-bar-height` (room at the page's end, floating buttons above it). In the document it stays between
 * the header and the content, where a keyboard and a screen reader meet it.
 */
export function GiftListFillingBar() {
  const { t } = useTranslation();
  const location = useLocation();
  const locale = localeOfPath(location.pathname);
  const filling = useGiftListFilling();
  if (!filling) return null;
  const listsPath = localizedHref("/crea-lista-nascita", locale);
  return (
    <aside
      aria-labelledby="gift-list-filling-title"
      className="fixed inset-x-0 bottom-0 z-[45] border-t border-brand-100 bg-brand-50 pb-[env(safe-area-inset-bottom)] text-brand-900 shadow-[0_-4px_12px_rgb(0_0_0/0.08)]"
    >
      {/* A phone gets two short rows, the title beside an X, then the total and the way to the list; a computer one row. */}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-1.5 text-sm desktop:flex-nowrap desktop:px-8 desktop:py-2">
        <h2
          id="gift-list-filling-title"
          className="flex min-w-0 items-center gap-2 font-bold mobile:order-1 mobile:basis-[calc(100%-4.5rem)] desktop:flex-1"
        >
          <GiftIcon size={18} className="shrink-0" />
          <span className="sr-only">{t("giftListFilling.barLabel")}: </span>
          {/* A phone's row has room for the list's name only: the sentence cut after "to" named no list. */}
          <span className="mobile:hidden desktop:truncate">{t("giftListFilling.filling", { title: filling.title })}</span>
          <span className="line-clamp-1 desktop:hidden">{filling.title}</span>
        </h2>
        <p className="flex items-baseline gap-x-2 whitespace-nowrap mobile:order-3" data-testid="gift-list-filling-total">
          <span>{`${t("giftListFilling.products", { count: filling.productCount })}, ${t("giftListFilling.units", { count: filling.unitCount })}.`}</span>
          <span className="mobile:sr-only">{t("giftListFilling.total")}</span>
          <Price cents={filling.totalCents} size="sm" />
        </p>
        <Link to={`${listsPath}#list-${filling.code}`} className="link ml-auto font-semibold whitespace-nowrap mobile:order-4">
          {t("giftListFilling.viewList")}
        </Link>
        <Form method="post" action={listsPath} className="shrink-0 mobile:order-2 mobile:ml-auto">
          <input type="hidden" name="intent" value="fill-stop" />
          <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
          <button type="submit" className="btn-secondary min-h-11 px-3 py-1 whitespace-nowrap mobile:min-w-11">
            <CloseIcon size={18} className="desktop:hidden" />
            <span className="mobile:sr-only">{t("giftListFilling.stop")}</span>
          </button>
        </Form>
      </div>
    </aside>
  );
}

/**
 * Adds a product to the chosen list. A fetcher post with JavaScript (a toast says what happened, and in a
 * dialog `showOutcome` says it inside, where a screen reader is); a plain post without it, which comes back
 * here with the same toast as a flash. No `variantId` (a size not chosen): the server asks for the size.
 * `withPersonalisation`: the texts typed in the same dialog's purchase form go along (the quick view).
 */
export function AddToGiftListForm({
  filling,
  variantId,
  productName,
  quantity = 1,
  label,
  className = "",
  buttonClassName = "btn-secondary w-full px-3",
  showOutcome = false,
  withPersonalisation = false,
}: {
  filling: GiftListFillingView;
  variantId: number | undefined;
  productName: string;
  quantity?: number;
  label: string;
  className?: string;
  buttonClassName?: string;
  showOutcome?: boolean;
  withPersonalisation?: boolean;
}) {
  // Not useTranslation(): a listing renders 24 of these forms (app/ui/use-shared-texts.ts).
  const t = usePageT();
  const location = useLocation();
  const locale = localeOfPath(location.pathname);
  const { showToast } = useToast();
  const fetcher = useFetcher<GiftListSelectorAnswer>();
  const awaiting = useRef(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const action = localizedHref("/crea-lista-nascita", locale);

  useEffect(() => {
    if (!awaiting.current || fetcher.state !== "idle" || !fetcher.data) return;
    awaiting.current = false;
    const answer = fetcher.data;
    const shown = answer.ok
      ? { ok: true, message: t("giftListFilling.added", { name: productName, title: filling.title }) }
      : { ok: false, message: t("giftListFilling.notAdded", { reason: answer.message }) };
    setOutcome(shown);
    showToast({ kind: shown.ok ? "success" : "error", message: shown.message });
  }, [fetcher.state, fetcher.data, t, productName, filling.title, showToast]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (withPersonalisation) {
      // The texts live in the add-to-cart form beside this one (a form cannot nest in another).
      const dialog = event.currentTarget.closest("dialog");
      for (const input of dialog?.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('[name^="personalisation."]') ?? [])
        form.set(input.name, input.value);
    }
    awaiting.current = true;
    setOutcome(null);
    // The answer arrives through fetcher.data; the promise only says when.
    void fetcher.submit(form, { method: "post", action });
  }

  const busy = fetcher.state !== "idle";
  return (
    <div className={className}>
      <form method="post" action={action} onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="gift-list-add" />
        <input type="hidden" name="giftListId" value={filling.id} />
        {variantId !== undefined && <input type="hidden" name="variantId" value={variantId} />}
        <input type="hidden" name="quantity" value={quantity} />
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <FetcherMarker />
        {/* The product in the name, as a label: a visually hidden part would be read with a space before its colon. */}
        <button
          type="submit"
          aria-label={`${label}: ${productName}`}
          className={`${buttonClassName} inline-flex items-center justify-center gap-2`}
          aria-busy={busy || undefined}
        >
          <GiftIcon size={18} />
          {label}
        </button>
      </form>
      {showOutcome && (
        <p
          role="status"
          className={
            outcome
              ? `mt-2 rounded-xl px-3 py-2 text-sm font-semibold ${outcome.ok ? "bg-brand-50 text-brand-900" : "bg-coral-50 text-coral-700"}`
              : "sr-only"
          }
        >
          {outcome?.message}
        </p>
      )}
    </div>
  );
}
