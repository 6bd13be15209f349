/**
 * What the page cache needs to give a signed-in customer, or a visitor with a cart, a visitor's kept page with
 * her personal regions rendered in (decision 0076, "filled-in pages"). The app implements it
 * (app/lib/personal-fill.server.tsx) and its server entry hands it over with the build; the page cache holds its
 * values without looking inside them.
 */
import type { ServerBuild } from "react-router";
import type { ShopServices } from "#server/shop-services.ts";

export type PageFiller<Part = unknown, Source = unknown, Plan = unknown> = {
  /** The personal part of the person asking, and the cookies reading it sets (a flash toast read). */
  readPersonalPart(request: Request): Promise<{ part: Part; headers: Headers }>;
  /** How to fill `html`, a visitor's page whose render left `source`; null when it cannot be filled. */
  planFill(html: string, url: string, source: Source): Promise<Plan | null>;
  /** Whether `part` answers everything the page asked outside its regions as the visitor's did. */
  answersAsVisitor(plan: Plan, part: Part): boolean;
  /** The page as rendered for `part`. */
  fillPage(plan: Plan, html: string, part: Part): string;
};

/** The server entry's `createPageFiller`, given the shop's services; null for a build without one. */
export function pageFillerOf(build: ServerBuild, services: ShopServices): PageFiller | null {
  const create = (build.entry.module as { createPageFiller?: (services: ShopServices) => PageFiller }).createPageFiller;
  return typeof create === "function" ? create(services) : null;
}
