import { useContext } from "react";
import { useRouteLoaderData } from "react-router";
import type { loader } from "#app/root.tsx";
import { DocumentPersonalPart, type PersonalPart } from "./personal-part";

type LoaderData = NonNullable<ReturnType<typeof useRouteLoaderData<typeof loader>>>;
type Merged = Omit<LoaderData, "personal"> & PersonalPart;

// One merge per loader data, shared by every component that asks (a listing's cards ask a hundred times a
// render; a merge each time cost about half a percent of a signed-in listing). The page's part is the same for
// every merge of a render, on the server (one request) as in the browser (one page load).
const merges = new WeakMap<LoaderData, Merged>();

/**
 * The root loader's data (shop settings, categories, locale, currency) with the personal part of the person
 * asking: the latest client navigation's, else the one the page was served with (app/lib/personal-part.tsx).
 * Undefined when the root loader failed.
 */
export function useRootData(): Merged | undefined {
  const root = useRouteLoaderData<typeof loader>("root");
  const documentPart = useContext(DocumentPersonalPart);
  if (!root) return undefined;
  let merged = merges.get(root);
  if (!merged) {
    const { personal, ...shared } = root;
    // The root loader gives every page it ran for a personal part: in its loader data (`.data`) or in the page.
    const part = personal ?? documentPart;
    if (!part) throw new Error("The root's data came without a personal part");
    merged = { ...shared, ...part };
    merges.set(root, merged);
  }
  return merged;
}

export type RootData = NonNullable<ReturnType<typeof useRootData>>;

/** The shop's identity from its settings, as every page gets it. */
export type ShopIdentity = RootData["shop"];
