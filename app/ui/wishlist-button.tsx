import { HeartIcon } from "./icons";
import { SavedItemIconButton } from "./saved-items";
import { useSharedTexts } from "./use-shared-texts";

/**
 * Adds a product to the wishlist (docs/rules.md#cart: only when absent; disabled once added), with a
 * toast ('Aggiunto alla lista dei desideri' / 'Added To Wishlist').
 */
export function WishlistButton({ productId, productName, className }: { productId: number; productName: string; className?: string }) {
  const { textAround } = useSharedTexts();
  return (
    <SavedItemIconButton
      list="wishlist"
      productId={productId}
      label={textAround("saved.wishlist.add", "name", productName)}
      savedLabel={() => textAround("saved.wishlist.inList", "name", productName)}
      icon={(saved) => <HeartIcon size={20} fill={saved ? "currentColor" : "none"} />}
      className={className}
    />
  );
}
