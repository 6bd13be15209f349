import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLocation } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import type { PersonalisationOffer } from "#server/catalog/product.service.ts";
import type { GiftListSelectorAnswer } from "#app/routes/gift-lists/gift-list-selector-action.server.ts";
import { formatSize } from "#common/sizes.ts";
import { FetcherMarker } from "./cart-toasts";
import { GiftIcon } from "./icons";
import { PersonalisationFields } from "./personalisation-fields";
import { useColourName } from "#app/lib/colour-name.ts";

type Step = "closed" | "oops" | "confirm" | "success" | "error";

/**
 * docs/rules.md#adding-from-the-product-page: the product page's "add to my gift list". With JavaScript: no list chosen
 * gives 'Oops...'; otherwise a confirm dialog with colour and quantity, then success or failure (with
 * 'Riprova'); cancelling clears the selection. Without it the form posts straight to the page.
 */
export function GiftListSelector({
  lists,
  variant,
  personalisation,
}: {
  lists: readonly { id: string; title: string }[];
  variant: { id: number; colour: string | null; size: string; isOneSize: boolean } | undefined;
  personalisation: PersonalisationOffer | null;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const locale = localeOfPath(location.pathname);
  const colourName = useColourName();
  const fetcher = useFetcher<GiftListSelectorAnswer>({ key: "gift-list-selector" });
  const formRef = useRef<HTMLFormElement>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [step, setStep] = useState<Step>("closed");
  // The list the owner is filling while browsing is the one meant here too.
  const fillingId = useRootData()?.giftListFilling?.id;
  const [selected, setSelected] = useState(() => (fillingId && lists.some((list) => list.id === fillingId) ? fillingId : ""));
  const [quantity, setQuantity] = useState(1);
  const [errorMessage, setErrorMessage] = useState("");
  const [personalisationMissing, setPersonalisationMissing] = useState<{ message: string } | null>(null);
  const sentRef = useRef(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (step === "closed") {
      if (dialog.open) dialog.close();
    } else if (!dialog.open) dialog.showModal();
  }, [step]);

  useEffect(() => {
    if (!sentRef.current || fetcher.state !== "idle" || !fetcher.data) return;
    sentRef.current = false;
    if (fetcher.data.ok) setStep("success");
    else {
      setErrorMessage(fetcher.data.message);
      setStep("error");
    }
  }, [fetcher.state, fetcher.data]);

  if (lists.length === 0) {
    return (
      <p className="flex items-center gap-2 text-sm">
        <GiftIcon size={18} className="text-brand-700" />
        <Link to={localizedHref("/crea-lista-nascita", locale)} className="link">
          {t("giftLists.selector.createFirst")}
        </Link>
      </p>
    );
  }
  if (!variant) return null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (selected === "") return setStep("oops");
    // The server refuses blank texts too; saying so here keeps the message beside the fields.
    const texts = [...new FormData(event.currentTarget)].filter(([name]) => name.startsWith("personalisation."));
    if (texts.some(([, value]) => typeof value !== "string" || value.trim() === "")) {
      return setPersonalisationMissing({ message: t("giftLists.errors.personalisation-missing") });
    }
    setPersonalisationMissing(null);
    setStep("confirm");
  };
  const send = () => {
    if (!formRef.current) return;
    sentRef.current = true;
    // The answer arrives through fetcher.data; the promise only says when.
    void fetcher.submit(formRef.current);
  };
  const cancel = () => {
    setSelected("");
    setStep("closed");
  };
  const colour = variant.colour ? colourName(variant.colour) : null;
  const busy = fetcher.state !== "idle";
  const titleId = "gift-list-dialog-title";

  return (
    <section aria-labelledby="gift-list-selector-title" className="rounded-2xl border border-brand-100 p-4">
      <h2 id="gift-list-selector-title" className="mb-3 flex items-center gap-2 font-bold">
        <GiftIcon size={20} className="text-brand-700" />
        {t("giftLists.selector.title")}
      </h2>
      <fetcher.Form ref={formRef} method="post" onSubmit={onSubmit} className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="gift-list-add" />
        <input type="hidden" name="variantId" value={variant.id} />
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <FetcherMarker />
        <div className="min-w-48 flex-1">
          <label htmlFor="gift-list-choice" className="field-label">
            {t("giftLists.selector.label")}
          </label>
          <select
            id="gift-list-choice"
            name="giftListId"
            value={selected}
            onChange={(event) => setSelected(event.target.value)}
            className="field-input"
          >
            <option value="">{t("giftLists.selector.none")}</option>
            {lists.map((list) => (
              <option key={list.id} value={list.id}>
                {list.title}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="gift-list-quantity" className="field-label">
            {t("giftLists.selector.quantity")}
          </label>
          <input
            id="gift-list-quantity"
            name="quantity"
            type="number"
            inputMode="numeric"
            min={1}
            max={99}
            value={quantity}
            onChange={(event) => setQuantity(Math.min(99, Math.max(1, Number(event.target.value) || 1)))}
            className="field-input w-20"
          />
        </div>
        {personalisation && (
          <div className="basis-full">
            <PersonalisationFields personalisation={personalisation} idPrefix="gift-list" missing={personalisationMissing} />
          </div>
        )}
        <button type="submit" className="btn-secondary h-11">
          {t("giftLists.selector.add")}
        </button>
      </fetcher.Form>

      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault();
          if (step === "confirm") cancel();
          else setStep("closed");
        }}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-3xl bg-white p-6 text-ink shadow-card backdrop:bg-ink/50"
      >
        {step === "oops" && (
          <DialogBody titleId={titleId} title={t("giftLists.selector.oops")} text={t("giftLists.selector.noList")}>
            <button type="button" className="btn-primary" autoFocus onClick={() => setStep("closed")}>
              {t("giftLists.selector.close")}
            </button>
          </DialogBody>
        )}
        {step === "confirm" && (
          <DialogBody titleId={titleId} title={t("giftLists.selector.confirmText")}>
            <p className="text-muted">
              {colour ? t("giftLists.selector.confirmDetails", { colour, quantity }) : t("giftLists.selector.confirmDetailsNoColour", { quantity })}
            </p>
            {!variant.isOneSize && <p className="text-muted">{t("giftLists.selector.confirmSize", { size: formatSize(variant.size) })}</p>}
            <div className="mt-4 flex flex-wrap gap-3">
              <button type="button" className="btn-primary" autoFocus disabled={busy} aria-busy={busy || undefined} onClick={send}>
                {t("giftLists.selector.confirm")}
              </button>
              <button type="button" className="btn-secondary" onClick={cancel}>
                {t("giftLists.selector.cancel")}
              </button>
            </div>
          </DialogBody>
        )}
        {step === "success" && (
          <DialogBody titleId={titleId} title={t("giftLists.selector.successTitle")} text={t("giftLists.selector.successText")}>
            <button type="button" className="btn-primary" autoFocus onClick={() => setStep("closed")}>
              {t("giftLists.selector.close")}
            </button>
          </DialogBody>
        )}
        {step === "error" && (
          <DialogBody titleId={titleId} title={t("giftLists.selector.errorTitle")} text={t("giftLists.selector.errorText")}>
            {errorMessage && <p className="-mt-2 mb-2 text-sm text-coral-700">{errorMessage}</p>}
            <div className="flex flex-wrap gap-3">
              <button type="button" className="btn-primary" autoFocus disabled={busy} onClick={send}>
                {t("giftLists.selector.retry")}
              </button>
              <button type="button" className="btn-secondary" onClick={() => setStep("closed")}>
                {t("giftLists.selector.close")}
              </button>
            </div>
          </DialogBody>
        )}
      </dialog>
    </section>
  );
}

function DialogBody({ titleId, title, text, children }: { titleId: string; title: string; text?: string; children: ReactNode }) {
  return (
    <div className="space-y-3">
      <h2 id={titleId} className="text-xl font-bold">
        {title}
      </h2>
      {text && <p>{text}</p>}
      {children}
    </div>
  );
}
