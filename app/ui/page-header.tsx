import type { ReactNode } from "react";

/** The heading band of the information pages. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="bg-linear-to-br from-brand-50 to-coral-50">
      <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
        {children && <div className="mt-3 max-w-3xl text-lg text-muted">{children}</div>}
      </div>
    </div>
  );
}
