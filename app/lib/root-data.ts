import { createContext, createElement, useContext, type ReactNode } from "react";
import { useRouteLoaderData } from "react-router";
import type { loader } from "#app/root.tsx";
import { DocumentPersonalPart, type PersonalPart } from "./personal-part";
import { useStoredPersonalPart } from "./personal-store";

type LoaderData = NonNullable<ReturnType<typeof useRouteLoaderData<typeof loader>>>;
type Merged = Omit<LoaderData, "personal"> & PersonalPart;

/**
 * The personal part the page's last answer carried, and whether it may be a visitor's kept answer rather than
 * hers: a `.data` says; a document's may be either (a kept page, or one filled in for her), so it counts as shared.
 */
export function useAnsweredPersonalPart(): { part: PersonalPart | undefined; shared: boolean } {
  const root = useRouteLoaderData<typeof loader>("root");
  const documentPart = useContext(DocumentPersonalPart);
  return { part: root?.personal ?? documentPart ?? undefined, shared: root?.personalShared ?? true };
}

/** A question a page asked of the personal part while it was rendered, with the answer it got (as JSON). */
export type PersonalRead = { question: (part: PersonalPart) => unknown; answer: string | undefined };

/**
 * What the render of a visitor's kept page notes for filling it in for a customer (decision 0076): the
 * questions it asked of the personal part outside its personal regions, by key (her part must answer each the
 * same), and its regions' elements, by name (rendered again for her). Set only while such a page is rendered
 * on the server (app/entry.server.tsx); read by app/lib/personal-fill.server.tsx.
 */
export type FillRecord = { reads: Map<string, PersonalRead>; regions: Map<string, ReactNode> };

export const FillRecording = createContext<FillRecord | null>(null);

const InPersonalRegion = createContext(false);

/**
 * A part of a page drawn from the personal part (the header's account menu and mini cart, the product page's
 * purchase block): a page filled in renders it again for the customer from the same element, so what it reads
 * is not asked of the page. `name` is unique in the page. It adds no element.
 */
export function PersonalRegion({ name, children }: { name: string; children: ReactNode }) {
  const recording = useContext(FillRecording);
  const inRegion = useContext(InPersonalRegion);
  // Only the server records (Vite drops this branch from the browser's bundle, as the ones below).
  if (import.meta.env.SSR && recording && !inRegion) recording.regions.set(name, children);
  return createElement(InPersonalRegion, { value: true }, children);
}

// One merge per loader data and personal part, shared by every component that asks (a listing's cards ask a
// hundred times a render; a merge each time cost about half a percent of a signed-in listing). A render has one
// part, on the server (one request, or one customer's regions of a filled page) as in the browser (one page load).
const merges = new WeakMap<LoaderData, { part: PersonalPart; merged: Merged }>();
// The same data whose personal fields note their reads, for the render of a visitor's kept page.
const watchedMerges = new WeakMap<Merged, Merged>();

function useMergedRootData(): { part: PersonalPart; merged: Merged } | undefined {
  const root = useRouteLoaderData<typeof loader>("root");
  const documentPart = useContext(DocumentPersonalPart);
  // In the browser after hydration, her part as it keeps it (decision 0095); null on the server and while hydrating.
  const storedPart = useStoredPersonalPart();
  if (!root) return undefined;
  // The root loader gives every page it ran for a personal part: in its loader data (`.data`) or in the page.
  const part = storedPart ?? root.personal ?? documentPart;
  if (!part) throw new Error("The root's data came without a personal part");
  let held = merges.get(root);
  if (held?.part !== part) {
    const { personal: _personal, ...shared } = root;
    held = { part, merged: { ...shared, ...part } };
    merges.set(root, held);
  }
  return held;
}

function noteRead(reads: Map<string, PersonalRead>, key: string, question: PersonalRead["question"], answer: unknown) {
  if (!reads.has(key)) reads.set(key, { question, answer: JSON.stringify(answer) });
}

function watched({ part, merged }: { part: PersonalPart; merged: Merged }, reads: Map<string, PersonalRead>): Merged {
  let watchedMerge = watchedMerges.get(merged);
  if (!watchedMerge) {
    watchedMerge = { ...merged };
    for (const field of Object.keys(part) as (keyof PersonalPart)[]) {
      Object.defineProperty(watchedMerge, field, {
        enumerable: true,
        get() {
          noteRead(reads, field, (asked) => asked[field], merged[field]);
          return merged[field];
        },
      });
    }
    watchedMerges.set(merged, watchedMerge);
  }
  return watchedMerge;
}

/**
 * The root loader's data (shop settings, categories, locale, currency) with the personal part of the person
 * asking: the latest client navigation's, else the one the page was served with (app/lib/personal-part.tsx).
 * Undefined when the root loader failed.
 */
export function useRootData(): Merged | undefined {
  const held = useMergedRootData();
  const reads = useContext(FillRecording)?.reads;
  const inRegion = useContext(InPersonalRegion);
  return import.meta.env.SSR && held && reads && !inRegion ? watched(held, reads) : held?.merged;
}

/**
 * One answer drawn from the personal part, noted as that question alone (`key` names it) rather than as a read
 * of the whole field: a card asks how many of its variant the cart holds, not for the cart.
 */
export function usePersonalAnswer<T>(key: string, question: (part: PersonalPart) => T): T | undefined {
  const held = useMergedRootData();
  const reads = useContext(FillRecording)?.reads;
  const inRegion = useContext(InPersonalRegion);
  if (!held) return undefined;
  const answer = question(held.part);
  if (import.meta.env.SSR && reads && !inRegion) noteRead(reads, key, question, answer);
  return answer;
}

/**
 * The same data for an event handler to read when the event comes: what only a handler reads (is she signed
 * in, to sync a list with her account?) does not shape the page, so it is not noted as asked of it.
 */
export function useRootDataForEvents(): () => Merged | undefined {
  const merged = useMergedRootData()?.merged;
  return () => merged;
}

export type RootData = NonNullable<ReturnType<typeof useRootData>>;

/** The shop's identity from its settings, as every page gets it. */
export type ShopIdentity = RootData["shop"];
