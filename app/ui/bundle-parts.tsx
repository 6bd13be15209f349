import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { useColourName } from "#app/lib/colour-name.ts";
import type { BundleView } from "#server/bundles/bundle.service.ts";
import { Price } from "./price";

/**
 * What a bundle holds (docs/decisions/0100-bundles.md): what it saves on the parts bought alone, and each part
 * with a link to its page, its colour and size in the chosen combination and whether it is on the shelf.
 */
export function BundleParts({ bundle, bundleVariantId }: { bundle: BundleView; bundleVariantId: number | null }) {
  const { t } = useTranslation();
  const colourName = useColourName();
  const locale = localeOfPath(useLocation().pathname);
  return (
    <section aria-labelledby="bundle-parts" className="rounded-xl border border-brand-100 bg-white p-4">
      <h2 id="bundle-parts" className="text-lg font-bold">
        {t("bundles.page.title")}
      </h2>
      {bundle.savedCents > 0 && (
        <p className="mt-1 text-sm">
          {t("bundles.page.partsAlone")} <Price cents={bundle.partsCents} size="sm" />.{" "}
          <strong className="text-brand-800">
            {t("bundles.page.youSave")} <Price cents={bundle.savedCents} size="sm" />
          </strong>
        </p>
      )}
      <ul className="mt-3 divide-y divide-brand-100">
        {bundle.parts.map((part) => {
          const option = bundleVariantId === null ? undefined : part.options[bundleVariantId];
          const available = option ? option.isForSale && option.stock >= part.quantity : null;
          const details = [option?.colour ? colourName(option.colour) : null, option?.size].filter(Boolean).join(", ");
          return (
            <li key={part.productId} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 py-2">
              <span>
                {part.quantity > 1 && <span className="font-semibold">{part.quantity} × </span>}
                <Link to={localizedHref(`/product/${part.productId}`, locale)} className="link">
                  {part.name}
                </Link>
                {details && <span className="text-sm text-muted"> ({details})</span>}
              </span>
              {available !== null && (
                <span className={`text-sm font-semibold ${available ? "text-green-800" : "text-coral-700"}`}>
                  {available ? t("bundles.page.partAvailable") : t("bundles.page.partUnavailable")}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
