import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { formatDate } from "#common/format.ts";
import type { GiftThanksRow } from "#server/gift-lists/gift-list-thanks.service.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import { formatSize } from "#common/sizes.ts";
import { useFormatPrice } from "./price";
import { useColourName } from "#app/lib/colour-name.ts";

/** `isExpired` is decided by the server (no clock in rendering: SSR and hydration agree). */
export type CompletionCodeView = {
  code: string;
  percent: number;
  validFrom: string | Date;
  validUntil: string | Date;
  isUsed: boolean;
  isExpired: boolean;
};

/** The thank-you tracker of one list: who gave what, their message, and "thanked" with undo. */
export function GiftThanksSection({ listCode, thanks, locale }: { listCode: string; thanks: GiftThanksRow[]; locale: Locale }) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  const colourName = useColourName();
  const headingId = `thanks-${listCode}`;
  const thanked = thanks.filter((gift) => gift.thankedAt !== null).length;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-sun-50/60 p-4 sm:p-6" data-testid="gift-thanks">
      <h3 id={headingId} className="text-xl font-bold">
        {t("giftLists.thanks.title")}
      </h3>
      {thanks.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t("giftLists.thanks.none")}</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-muted">{t("giftLists.thanks.progress", { thanked, count: thanks.length })}</p>
          <ul className="mt-3 divide-y divide-sun-200">
            {thanks.map((gift) => {
              const details = [gift.colour ? colourName(gift.colour) : null, gift.size ? formatSize(gift.size) : null].filter(Boolean).join(", ");
              const what = gift.itemName ?? t("giftLists.thanks.removedItem");
              return (
                <li key={gift.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold break-words">{gift.giverName}</p>
                    <p className="text-sm">
                      {gift.kind === "contribution"
                        ? t("giftLists.thanks.contribution", { amount: format(gift.amountCents), item: what })
                        : t("giftLists.thanks.item", { count: gift.quantity, item: what })}
                      {details && <span className="text-muted"> ({details})</span>}
                    </p>
                    {gift.returnedQuantity > 0 && (
                      <p className="text-sm font-semibold text-coral-700">{t("afterSales.giftList.returned", { count: gift.returnedQuantity })}</p>
                    )}
                    {gift.message && (
                      <blockquote className="mt-1 border-l-4 border-sun-300 pl-3 text-sm break-words italic">{gift.message}</blockquote>
                    )}
                    <p className="mt-1 text-xs text-muted">{t("giftLists.thanks.givenOn", { date: formatDate(gift.givenAt, locale) })}</p>
                  </div>
                  <Form method="post" action={localizedHref("/crea-lista-nascita", locale)} className="flex flex-col items-end gap-1">
                    <input type="hidden" name="intent" value="thank" />
                    <input type="hidden" name="purchaseId" value={gift.id} />
                    <input type="hidden" name="thanked" value={gift.thankedAt ? "no" : "yes"} />
                    {gift.thankedAt && (
                      <p className="text-sm font-semibold text-brand-700">
                        {t("giftLists.thanks.thankedOn", { date: formatDate(gift.thankedAt, locale) })}
                      </p>
                    )}
                    <button type="submit" className={gift.thankedAt ? "btn px-3 py-1 text-sm underline" : "btn-secondary px-3 py-1.5 text-sm"}>
                      {t(gift.thankedAt ? "giftLists.thanks.undo" : "giftLists.thanks.mark")}
                      <span className="sr-only"> {gift.giverName}</span>
                    </button>
                  </Form>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}

/** The completion discount of one list, once its window has opened. */
export function CompletionCodePanel({ completion, locale }: { completion: CompletionCodeView; locale: Locale }) {
  const { t } = useTranslation();
  const lastDay = new Date(new Date(completion.validUntil).getTime() - 1);
  return (
    <section className="rounded-2xl border-2 border-dashed border-brand-300 bg-brand-50/60 p-4 sm:p-6" data-testid="completion-code">
      <h3 className="text-xl font-bold">{t("giftLists.completion.title")}</h3>
      <p className="mt-1">{t("giftLists.completion.text", { percent: completion.percent })}</p>
      <p className="mt-3 text-lg">
        {t("giftLists.completion.code")}: <strong className="font-mono tracking-widest break-all">{completion.code}</strong>
      </p>
      <p className="mt-1 text-sm">
        {completion.isUsed
          ? t("giftLists.completion.used")
          : completion.isExpired
            ? t("giftLists.completion.expired")
            : t("giftLists.completion.validity", { from: formatDate(completion.validFrom, locale), until: formatDate(lastDay, locale) })}
      </p>
    </section>
  );
}
