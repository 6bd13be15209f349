import type { ReactNode } from "react";
import { PageHeader } from "./page-header.tsx";

/**
 * A page whose work is one small form in a card under the page's header: the password pages, the e-mail check,
 * the guest order lookup, the owner's first sign-up. `before` stands above the card (a hint for signed-in customers).
 */
export function FormCardPage({
  title,
  lead,
  cardId,
  cardTitle,
  before,
  children,
}: {
  title: string;
  lead?: ReactNode;
  /** The card's heading id, which labels the card. */
  cardId: string;
  cardTitle: string;
  before?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title}>{lead && <p>{lead}</p>}</PageHeader>
      <div className="mx-auto max-w-xl space-y-6 px-4 py-10">
        {before}
        <section aria-labelledby={cardId} className="rounded-3xl bg-white p-6 shadow-card sm:p-8">
          <h2 id={cardId} className="text-2xl font-bold">
            {cardTitle}
          </h2>
          {children}
        </section>
      </div>
    </>
  );
}
