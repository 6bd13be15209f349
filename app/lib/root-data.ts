import { useContext, useMemo } from "react";
import { useRouteLoaderData } from "react-router";
import type { loader } from "#app/root.tsx";
import { DocumentPersonalPart, type PersonalPart } from "./personal-part";

/** Shown when neither the loader data nor the page carries a personal part: nobody's. */
const nobodysPart: PersonalPart = {
  user: null,
  cart: { count: 0, lines: [], subtotalCents: 0, giftList: null, flash: [] },
  giftListFilling: null,
  savedItems: { wishlist: [], compare: [] },
};

/**
 * The root loader's data (shop settings, categories, locale, currency) with the personal part of the person
 * asking: the latest client navigation's, else the one the page was served with (app/lib/personal-part.tsx).
 * Undefined when the root loader failed.
 */
export function useRootData() {
  const root = useRouteLoaderData<typeof loader>("root");
  const documentPart = useContext(DocumentPersonalPart);
  return useMemo(() => {
    if (!root) return undefined;
    const { personal, ...shared } = root;
    return { ...shared, ...(personal ?? documentPart ?? nobodysPart) };
  }, [root, documentPart]);
}

export type RootData = NonNullable<ReturnType<typeof useRootData>>;

/** The shop's identity from its settings, as every page gets it. */
export type ShopIdentity = RootData["shop"];
