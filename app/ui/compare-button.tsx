import { useTranslation } from "react-i18next";
import { CompareIcon } from "./icons";
import { SavedItemIconButton } from "./saved-items";

/**
 * Adds a product to the compare list (at most 4; SPEC.md section 4: only when absent, disabled once
 * added), with a toast ('Aggiunto al confronto' / 'Added To Compare').
 */
export function CompareButton({ productId, productName, className }: { productId: number; productName: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <SavedItemIconButton
      list="compare"
      productId={productId}
      label={t("saved.compare.add", { name: productName })}
      savedLabel={t("saved.compare.inList", { name: productName })}
      icon={(saved) => <CompareIcon size={20} strokeWidth={saved ? 2.6 : 1.8} />}
      className={className}
    />
  );
}
