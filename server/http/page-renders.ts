/**
 * Renders of visitors' pages under way in this process, by page and versions: a visitor asking for a page
 * while it renders waits for that render rather than rendering it again (page-cache.ts). Every wait is
 * bounded (docs/decisions/0082-page-cache-waits-bounded.md): a render that will not happen (its visitor gone
 * before it began, in the page queue or before; a render or send error) releases its waiters at once, and no
 * one waits longer than `renderWaitMs` for another's render: then she renders her own.
 */
import type { Response } from "express";

/**
 * The longest wait for another visitor's render of the same page, and the longest a render stays the one to
 * wait for. Above a render of a visitor's page under load, queue included (rendered pages' p99 1.6-1.8 s at
 * 50 connections, decision 0074), and far enough below the 15-20 s that browsers and load balancers give up
 * after for a visitor whose wait ran out to be given her own render.
 */
export const renderWaitMs = 5_000;

/** One request's render of a page, which others wait for. */
export type RenderClaim<Page> = {
  /** Hands the outcome to the waiters (null: each renders her own, or one renders for the others); once. */
  settle: (page: Page | null) => void;
  /**
   * The render has begun and will settle whatever the client does (it is not aborted with the connection):
   * her leaving no longer releases the waiters.
   */
  begin: () => void;
};

export type RendersUnderWay<Page> = ReturnType<typeof createRendersUnderWay<Page>>;

export function createRendersUnderWay<Page>({ waitMs = renderWaitMs }: { waitMs?: number } = {}) {
  const underWay = new Map<string, { outcome: Promise<Page | null> }>();

  /**
   * `res`'s request renders the page under `key` for whoever asks meanwhile. Released when its client leaves
   * before the render began (at once if she has already left), when it settles, or after `waitMs` at most.
   */
  function claim(key: string, res: Response): RenderClaim<Page> {
    let resolve!: (page: Page | null) => void;
    const entry = { outcome: new Promise<Page | null>((done) => (resolve = done)) };
    const onClose = () => settle(null);
    const lapse = setTimeout(onClose, waitMs);
    lapse.unref();
    let settled = false;
    const settle = (page: Page | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(lapse);
      res.off("close", onClose);
      if (underWay.get(key) === entry) underWay.delete(key);
      resolve(page);
    };
    underWay.set(key, entry);
    if (res.closed) settle(null);
    else res.once("close", onClose);
    return { settle, begin: () => res.off("close", onClose) };
  }

  /**
   * The page of the render under way for `key`, if any: the page, or null when that render did not give one
   * (look again: it may be kept, or another claimed it), or "late" once `deadline` (ms) has passed.
   */
  async function waitFor(key: string, deadline: number): Promise<Page | null | "late" | "none"> {
    const entry = underWay.get(key);
    if (!entry) return "none";
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), Math.max(0, deadline - Date.now()))));
    try {
      return await Promise.race([entry.outcome, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  return { claim, waitFor, size: () => underWay.size };
}
