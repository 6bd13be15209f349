import { useCallback, useEffect, useRef, useState, type RefObject, type SyntheticEvent } from "react";
import { useLocation } from "react-router";
import { useHydrated } from "./use-hydrated";

type DisclosureOptions = {
  /** Close when a click or focus lands outside (dropdowns); off for the off-canvas menu. */
  closeOnOutside?: boolean;
  /** Where "inside" ends, when the content is shown beside the `<details>` rather than in it (the mega menu): this element. */
  insideRef?: RefObject<HTMLElement | null>;
};

/**
 * A `<details>` disclosure: it opens and closes natively (no JavaScript needed). Once hydrated it
 * also closes on Escape (focus back on its summary), on navigation and, for dropdowns, when the
 * pointer or the focus goes elsewhere; `aria-expanded` is then kept in step with it.
 */
export function useDisclosure({ closeOnOutside = true, insideRef }: DisclosureOptions = {}) {
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const { key: locationKey } = useLocation();

  const close = useCallback((restoreFocus = false) => {
    const details = detailsRef.current;
    if (!details?.open) return;
    details.open = false;
    if (restoreFocus) details.querySelector("summary")?.focus();
  }, []);

  // Opened before hydration: take the state over from the page.
  useEffect(() => {
    if (detailsRef.current?.open) setOpen(true);
  }, []);

  // Close after a navigation, but not at hydration: a menu opened before it must stay open.
  const shownLocationKey = useRef(locationKey);
  useEffect(() => {
    if (shownLocationKey.current === locationKey) return;
    shownLocationKey.current = locationKey;
    close();
  }, [locationKey, close]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") close(true);
    };
    const onOutside = (event: Event) => {
      const inside = insideRef?.current ?? detailsRef.current;
      if (closeOnOutside && !inside?.contains(event.target as Node)) close();
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onOutside);
    document.addEventListener("focusin", onOutside);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onOutside);
      document.removeEventListener("focusin", onOutside);
    };
  }, [open, close, closeOnOutside, insideRef]);

  return {
    open,
    close,
    detailsProps: {
      ref: detailsRef,
      onToggle: (event: SyntheticEvent<HTMLDetailsElement>) => setOpen(event.currentTarget.open),
    },
    /** Without JavaScript the browser exposes the state of a summary itself. */
    summaryProps: { "aria-expanded": hydrated ? open : undefined },
  };
}
