import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CloseIcon } from "./icons";
import { useHydrated } from "./use-hydrated";

export type ToastKind = "success" | "warning" | "error" | "info";

export type ToastInput = {
  kind: ToastKind;
  message: string;
  /** Stays until dismissed (docs/rules.md#gift-list-mixing); others go by themselves. */
  persistent?: boolean;
};

type ShownToast = ToastInput & { id: number };

type ToastApi = {
  showToast: (toast: ToastInput) => void;
  dismissToast: (id: number) => void;
};

/** How long a toast that is not persistent stays on screen. */
export const toastDurationMs = 5000;

const noop: ToastApi = { showToast: () => {}, dismissToast: () => {} };
const ToastContext = createContext<ToastApi>(noop);
const ToastListContext = createContext<readonly ShownToast[]>([]);

/** `showToast({ kind, message, persistent? })` from any component under the site shell. */
export function useToast(): ToastApi {
  return useContext(ToastContext);
}

let nextToastId = 1;

/**
 * Holds the toasts of the page. `initial` are toasts the server rendered (a flash carried by a cookie
 * after a form post without JavaScript), so they show even before or without hydration.
 */
export function ToastProvider({ children, initial = [] }: { children: ReactNode; initial?: readonly ToastInput[] }) {
  const [toasts, setToasts] = useState<ShownToast[]>(() => initial.map((toast, index) => ({ ...toast, id: -1 - index })));

  const dismissToast = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);
  const showToast = useCallback((toast: ToastInput) => {
    const id = nextToastId++;
    // The same message twice in a row replaces the first, so repeated clicks do not pile up.
    setToasts((current) => [...current.filter((shown) => shown.message !== toast.message), { ...toast, id }].slice(-4));
  }, []);

  // A new server flash (e.g. after a redirect) arrives as new `initial` toasts.
  const initialKey = initial.map((toast) => `${toast.kind}:${toast.message}`).join("|");
  const seenInitialKey = useRef(initialKey);
  useEffect(() => {
    if (seenInitialKey.current === initialKey) return;
    seenInitialKey.current = initialKey;
    for (const toast of initial) showToast(toast);
  }, [initialKey, initial, showToast]);

  const api = useMemo(() => ({ showToast, dismissToast }), [showToast, dismissToast]);
  return (
    <ToastContext.Provider value={api}>
      <ToastListContext.Provider value={toasts}>{children}</ToastListContext.Provider>
    </ToastContext.Provider>
  );
}

const kindClass: Record<ToastKind, string> = {
  success: "border-brand-600 bg-brand-50 text-brand-900",
  info: "border-brand-300 bg-white text-ink",
  warning: "border-amber-500 bg-sun-50 text-ink",
  error: "border-coral-600 bg-coral-50 text-coral-700",
};

function ToastItem({ toast }: { toast: ShownToast }) {
  const { t } = useTranslation();
  const { dismissToast } = useToast();
  const hydrated = useHydrated();
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (toast.persistent || paused) return;
    const timer = window.setTimeout(() => dismissToast(toast.id), toastDurationMs);
    return () => window.clearTimeout(timer);
  }, [toast.id, toast.persistent, paused, dismissToast]);

  return (
    <div
      data-toast-kind={toast.kind}
      className={`pointer-events-auto flex items-start gap-3 rounded-2xl border-l-4 px-4 py-3 shadow-card ${kindClass[toast.kind]}`}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <p className="flex-1 text-sm font-semibold">{toast.message}</p>
      {hydrated && (
        <button
          type="button"
          onClick={() => dismissToast(toast.id)}
          className="-m-1 grid size-8 shrink-0 place-items-center rounded-full hover:bg-black/5"
        >
          <CloseIcon size={18} />
          <span className="sr-only">{t("toast.dismiss")}</span>
        </button>
      )}
    </div>
  );
}

/**
 * The toasts, in a live region that is always in the page (a region added together with its text is
 * not announced). Errors go to an assertive region, the rest to a polite one. Bottom right, above
 * the chat button, so the header's cart stays visible.
 */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useContext(ToastListContext);
  const hydrated = useHydrated();
  const urgent = toasts.filter((toast) => toast.kind === "error");
  const calm = toasts.filter((toast) => toast.kind !== "error");
  return (
    <section
      aria-label={t("toast.region")}
      data-toaster={hydrated ? "hydrated" : "server"}
      className="pointer-events-none fixed inset-x-3 bottom-24 z-[70] flex flex-col items-center gap-2 sm:inset-x-auto sm:right-4 sm:w-96"
    >
      <div role="alert" aria-live="assertive" aria-atomic="false" className="flex w-full flex-col gap-2">
        {urgent.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </div>
      <div role="status" aria-live="polite" aria-atomic="false" className="flex w-full flex-col gap-2">
        {calm.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </div>
    </section>
  );
}
