import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import { usePersonalAnswer } from "#app/lib/root-data.ts";
import type { PersonalisationOffer } from "#server/catalog/product.service.ts";
import { addToCartFetcherPrefix } from "./add-to-cart-form";
import type { CartActionData } from "./cart-toasts";
import { useFormatPrice } from "./price";

/** The cart's refusals about the personalisation texts (server/cart/cart.ts checkPersonalisation). */
const isPersonalisationError = (error: string | undefined) => error?.startsWith("personalisation-") === true;

/**
 * The cart's answer about these texts, if it refused them: the add-to-cart fetcher's answer, or after a post
 * without JavaScript the flash toast the page came back with (the form is then empty again).
 */
function usePersonalisationRefusal(variantId: number | undefined) {
  const fetcher = useFetcher<CartActionData>({ key: `${addToCartFetcherPrefix}${variantId ?? 0}` });
  const flash = usePersonalAnswer("flash toasts", (part) => part.cart.flash)?.find((toast) => isPersonalisationError(toast.error));
  if (variantId === undefined) return null;
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  if (answer && !answer.ok && isPersonalisationError(answer.error)) return { message: answer.message, answer, fromFlash: false };
  if (!answer && flash) return { message: flash.message, answer: flash, fromFlash: true };
  return null;
}

/**
 * The customisation texts of a customisable product, inside the add-to-cart form: one labelled
 * field per entry, named `personalisation.{index}` (the cart's contract), each with its maximum
 * length, plus the shop's description and the cost per item. Every field is needed (docs/rules.md#personalisation).
 * The shop says when one is blank itself, never the browser's own bubble (which an empty field would get
 * and a field of spaces would not): "Personalizzazione non inserita! " beside the fields, the blank ones
 * marked invalid and the first focused. In the cart's form (`variantId`) the message is the server's answer,
 * with or without JavaScript; another form checks before it sends and passes its finding as `missing`
 * (a new object for each try).
 */
export function PersonalisationFields({
  personalisation,
  idPrefix,
  variantId,
  missing,
}: {
  personalisation: PersonalisationOffer;
  idPrefix: string;
  variantId?: number;
  missing?: { message: string } | null;
}) {
  const { t } = useTranslation();
  const formatPrice = useFormatPrice();
  const descriptionId = `${idPrefix}-personalisation-description`;
  const errorId = `${idPrefix}-personalisation-error`;
  const refusal = usePersonalisationRefusal(variantId) ?? (missing ? { message: missing.message, answer: missing, fromFlash: false } : null);
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  // Indexes of the fields to mark; after a post without JavaScript every field is empty again.
  const [invalid, setInvalid] = useState<readonly number[]>(() => (refusal?.fromFlash ? personalisation.fields.map((_, index) => index) : []));
  const answer = refusal?.answer;
  const fromFlash = refusal?.fromFlash ?? false;
  const fields = personalisation.fields;
  // Once per answer of the fetcher (each is a new object): mark the blank fields (all, if none is) and focus the first.
  useEffect(() => {
    if (!answer || fromFlash) return;
    const blank = inputs.current.flatMap((input, index) => (input && input.value.trim() === "" ? [index] : []));
    const marked = blank.length > 0 ? blank : fields.map((_, index) => index);
    setInvalid(marked);
    inputs.current[marked[0]!]?.focus();
  }, [answer, fromFlash, fields]);
  const shownInvalid = refusal ? invalid : [];
  return (
    <fieldset className="rounded-2xl border border-brand-100 bg-brand-50/60 p-4" aria-describedby={descriptionId}>
      <legend className="px-1 font-bold">{t("productPage.personalisation.title")}</legend>
      <div id={descriptionId} className="mb-3 text-sm text-muted">
        <p>{personalisation.description}</p>
        <p className="mt-1 font-semibold text-ink">
          {personalisation.costCents > 0
            ? t("productPage.personalisation.cost", { price: formatPrice(personalisation.costCents) })
            : t("productPage.personalisation.free")}
        </p>
      </div>
      {refusal && (
        <p id={errorId} className="field-error mb-3" role="alert">
          {refusal.message}
        </p>
      )}
      <div className="flex flex-col gap-3">
        {personalisation.fields.map((field, index) => {
          const id = `${idPrefix}-personalisation-${index}`;
          const hintId = `${id}-hint`;
          const isInvalid = shownInvalid.includes(index);
          return (
            <div key={index}>
              <label htmlFor={id} className="field-label">
                {field.label}
              </label>
              <input
                ref={(input) => {
                  inputs.current[index] = input;
                }}
                id={id}
                name={`personalisation.${index}`}
                type="text"
                aria-required
                aria-invalid={isInvalid || undefined}
                autoFocus={refusal?.fromFlash && index === 0}
                maxLength={field.maxLength}
                autoComplete="off"
                aria-describedby={isInvalid ? `${errorId} ${hintId}` : hintId}
                onChange={(event) => {
                  if (event.currentTarget.value.trim() !== "") setInvalid((current) => current.filter((other) => other !== index));
                }}
                className="field-input"
              />
              <p id={hintId} className="mt-1 text-xs text-muted">
                {t("productPage.personalisation.maxLength", { count: field.maxLength })}
              </p>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
