import { useTranslation } from "react-i18next";
import { HeartIcon } from "./icons";
import { SavedItemIconButton } from "./saved-items";

/**
 * Adds a product to the wishlist (SPEC.md section 4: only when absent; disabled once added), with a
 * toast ('Aggiunto alla lista dei desideri' / 'Added To Wishlist').
 */
export function WishlistButton({ productId, productName, className }: { productId: number; productName: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <SavedItemIconButton
      list="wishlist"
      productId={productId}
      label={t("saved.wishlist.add", { name: productName })}
      savedLabel={t("saved.wishlist.inList", { name: productName })}
      icon={(saved) => <HeartIcon size={20} fill={saved ? "currentColor" : "none"} />}
      className={className}
    />
  );
}
