import { CompareIcon } from "./icons";
import { SavedItemIconButton } from "./saved-items";
import { useSharedTexts } from "./use-shared-texts";

/**
 * Adds a product to the compare list (at most 4; docs/rules.md#cart: only when absent, disabled once
 * added), with a toast ('Aggiunto al confronto' / 'Added To Compare').
 */
export function CompareButton({ productId, productName, className }: { productId: number; productName: string; className?: string }) {
  const { textAround } = useSharedTexts();
  return (
    <SavedItemIconButton
      list="compare"
      productId={productId}
      label={textAround("saved.compare.add", "name", productName)}
      savedLabel={() => textAround("saved.compare.inList", "name", productName)}
      icon={(saved) => <CompareIcon size={20} strokeWidth={saved ? 2.6 : 1.8} />}
      className={className}
    />
  );
}
