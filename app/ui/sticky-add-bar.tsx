import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Price } from "./price";

/**
 * Phones and tablets: a bar fixed at the bottom of the screen with the price and an add button, shown while
 * the page's own add-to-cart form is out of view. Its button submits that form through the `form`
 * attribute, so it adds exactly the chosen colour, size, quantity and personalisation, with or without
 * JavaScript. When nothing can be added (the size is sold out, the cart holds all of it) it is a link to the
 * choice instead. The page keeps room for it at its end (app.css), so it never hides the last lines. Over the
 * gift-list bar, if any, by a translate: moving it when that bar arrives after load is no layout shift.
 */
export function StickyAddBar({
  formId,
  choiceId,
  productName,
  priceCents,
  originalCents,
  addable,
}: {
  formId: string;
  choiceId: string;
  productName: string;
  priceCents: number;
  originalCents: number | null;
  addable: boolean;
}) {
  const { t } = useTranslation();
  const formInView = useInView(formId);
  return (
    <div
      data-sticky-add-bar
      data-shown={formInView ? undefined : ""}
      className="invisible fixed inset-x-0 bottom-0 z-40 translate-y-full border-t border-brand-100 bg-white px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-card transition-[translate,visibility] duration-200 data-shown:visible data-shown:-translate-y-(--filling-bar-height) desktop:hidden"
    >
      <div className="mx-auto flex h-12 max-w-3xl items-center justify-between gap-3">
        <Price cents={priceCents} originalCents={originalCents} />
        {addable ? (
          <button
            type="submit"
            form={formId}
            aria-label={t("productPage.stickyBar.add", { name: productName })}
            className="btn-primary h-11 shrink-0 px-6 text-base"
          >
            {t("productPage.stickyBar.addShort")}
          </button>
        ) : (
          <a href={`#${choiceId}`} className="btn-secondary h-11 shrink-0 px-5 text-base">
            {t("productPage.stickyBar.choose")}
          </a>
        )}
      </div>
    </div>
  );
}

/** Whether the element with this id is at least partly on screen; false before hydration (the bar shows). */
function useInView(id: string): boolean {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const element = document.getElementById(id);
    if (!element) return;
    const observer = new IntersectionObserver(([entry]) => setInView(entry?.isIntersecting ?? false));
    observer.observe(element);
    return () => observer.disconnect();
  }, [id]);
  return inView;
}
