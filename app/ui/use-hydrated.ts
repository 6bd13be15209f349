import { startTransition, useEffect, useState } from "react";

/** Whether this page's first hydration is done: components that mount after it start hydrated. */
let pageHydrated = false;

/**
 * False on the server and while hydrating, true once React runs in the browser. The switch after the first
 * hydration is a transition: React renders what it changes (quick views, enhanced forms, menus' state) in
 * short slices, where a store-backed flag re-rendered every user at once in one long task after hydration
 * (docs/decisions/0031-scripts-after-first-paint.md).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(pageHydrated);
  useEffect(() => {
    pageHydrated = true;
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
