import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ArrowUpIcon } from "./icons";

/** docs/rules.md#storefront: the button appears after 100px of scrolling. */
const showAfterPx = 100;

export function ScrollToTopButton() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const update = () => setVisible(window.scrollY > showAfterPx);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  if (!visible) return null;
  return (
    <button
      type="button"
      data-floating-action
      onClick={() => {
        const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        window.scrollTo({ top: 0, behavior: smooth ? "smooth" : "auto" });
        document.getElementById("top")?.focus({ preventScroll: true });
      }}
      className="fixed right-5 bottom-22 z-30 grid size-12 place-items-center rounded-full border-2 border-brand-700 bg-white text-brand-800 shadow-card hover:bg-brand-50"
    >
      <ArrowUpIcon />
      <span className="sr-only">{t("scrollTop")}</span>
    </button>
  );
}
