import type { ReactNode } from "react";

type Name = { label: string; labelledBy?: never } | { labelledBy: string; label?: never };

/**
 * A wide table's frame that scrolls sideways on a narrow screen. It is a named region and takes
 * focus, so a keyboard can scroll it too (WCAG 2.1.1, axe `scrollable-region-focusable`).
 */
export function ScrollRegion({ label, labelledBy, className = "", children }: Name & { className?: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} aria-labelledby={labelledBy} tabIndex={0} className={`overflow-x-auto ${className}`.trim()}>
      {children}
    </div>
  );
}
