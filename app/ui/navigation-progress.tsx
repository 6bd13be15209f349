import { useTranslation } from "react-i18next";
import { useNavigation } from "react-router";

/**
 * Shown while a navigation waits for its data or its lazily loaded route module (docs/rules.md#storefront:
 * "spinner fallback"). It fades in after 300ms so quick navigations do not flash it.
 */
export function NavigationProgress() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed inset-x-0 top-0 z-[70]">
      {busy && (
        <div className="animate-fade-in">
          <div className="h-1 overflow-hidden bg-brand-100">
            <div className="h-full w-2/5 animate-progress bg-coral-600" />
          </div>
          <div className="fixed top-3 left-1/2 flex -translate-x-1/2 items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-semibold text-brand-800 shadow-card">
            <span className="size-4 animate-spin rounded-full border-2 border-brand-200 border-t-brand-700" aria-hidden="true" />
            {t("loading")}
          </div>
        </div>
      )}
    </div>
  );
}
