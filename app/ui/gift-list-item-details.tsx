import { formatSize } from "#common/sizes.ts";
import type { ProductImageData } from "./product-image";
import { useColourName } from "#app/lib/colour-name.ts";

/** What the owner's page and the guests' page both show of a wished item. */
export type GiftListItemBase = {
  id: string;
  productId: number;
  name: string;
  colour: string | null;
  size: string | null;
  image: ProductImageData | null;
  personalisation: { label: string; text: string }[];
  quantityWished: number;
  stillNeeded: number;
  arrivesAfterEvent: boolean;
};

/** The lines under an item's name: its colour and size, then each personalisation. */
export function GiftListItemDetails({ item }: { item: Pick<GiftListItemBase, "colour" | "size" | "personalisation"> }) {
  const colourName = useColourName();
  const variantText = [item.colour ? colourName(item.colour) : null, item.size ? formatSize(item.size) : null].filter(Boolean).join(" · ");
  return (
    <>
      {variantText && <p className="text-sm text-muted">{variantText}</p>}
      {item.personalisation.map((entry) => (
        <p key={entry.label} className="text-sm text-muted">
          {entry.label}: {entry.text}
        </p>
      ))}
    </>
  );
}
