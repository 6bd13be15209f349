import { useRouteLoaderData } from "react-router";
import type { loader } from "#app/root.tsx";

/** The root loader's data: shop settings, categories, locale, user. Undefined when the root loader failed. */
export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export type RootData = NonNullable<ReturnType<typeof useRootData>>;

/** The shop's identity from its settings, as every page gets it. */
export type ShopIdentity = RootData["shop"];
