import path from "node:path";
import type { Rolldown } from "vite";

type ModuleGraph = Pick<Rolldown.ChunkingContext, "getModuleInfo">;

/**
 * The browser build's chunk groups (docs/decisions/0026-lighthouse-budgets.md): each group is a set of
 * entry files and everything they import statically. Left to itself the bundler makes one chunk per set of
 * pages sharing a module, and the home page loaded 35 files; on a slow HTTP/1.1 connection (6 at a time)
 * each costs a round trip. A module two groups reach goes to the first.
 * - shell: what every page runs: the browser entry and root.tsx (React, React Router, i18next, header,
 *   menus, mini cart, footer, error pages); it holds the entry, so the file keeps the entry's name
 *   (`entry.client-*.js`);
 * - delivery-promise: the promise's line (product page, quick view, cart). Inside the card's group it made the
 *   cart load the whole card chunk for it: the cart's own JS went from 19.7 to 27.3 KB gzip;
 * - product-card: the card with its wishlist, compare and quick-view parts (home, listings, product page,
 *   wishlist, compare).
 */
const groups = [
  { name: "shell", files: ["app/entry.client.tsx", "app/root.tsx"] },
  { name: "delivery-promise", files: ["app/ui/delivery-promise.tsx"] },
  { name: "product-card", files: ["app/ui/product-card.tsx"] },
];

export function browserChunkGroups(root: string): Rolldown.CodeSplittingGroup[] {
  const reached = new Map<string, Set<string>>();
  const reachedFrom = (files: string[], graph: ModuleGraph) => {
    const key = files.join();
    let modules = reached.get(key);
    if (!modules) {
      modules = new Set();
      const pending = files.map((file) => path.resolve(root, file));
      while (pending.length > 0) {
        const id = pending.pop()!;
        if (modules.has(id)) continue;
        modules.add(id);
        pending.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
      }
      reached.set(key, modules);
    }
    return modules;
  };
  return groups.map(({ name, files }, index) => ({
    debugName: name,
    name: (id, graph) => {
      const earlier = groups.slice(0, index).some((group) => reachedFrom(group.files, graph).has(id));
      return !earlier && reachedFrom(files, graph).has(id) ? name : null;
    },
    priority: groups.length - index,
  }));
}
