import { useTranslation } from "react-i18next";
import { colourName } from "#common/variant-label.ts";

/** "Bianco" / "White" for a colour key, in the page's language (common/variant-label.ts): the product page's words everywhere. */
export function useColourName() {
  const { t } = useTranslation();
  return (colour: string) => colourName(t, colour);
}
