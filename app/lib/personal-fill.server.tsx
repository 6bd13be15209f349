/**
 * A visitor's kept page given to a signed-in customer, or to a visitor with a cart, with her personal regions
 * rendered again for her instead of the whole page (decision 0076, "filled-in pages"). The page may be filled
 * only when everything else it asked of the personal part gets the same answer from hers (`FillRecording`),
 * and when each region, rendered on its own for the visitor, is found once in the kept page's bytes.
 */
import { createContext, useContext, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import type { i18n as I18n } from "i18next";
import { I18nextProvider } from "react-i18next";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject, type StaticHandlerContext } from "react-router";
import { ToastProvider } from "#app/ui/toaster.tsx";
import { readSessionUserQuickly } from "#server/accounts/session-read.ts";
import type { PageFiller } from "#server/http/page-filler.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { localeOfPath } from "#common/locale.ts";
import { DocumentPersonalPart, personalPartScript, type PersonalPart } from "./personal-part";
import { readPersonalPart } from "./personal-part.server";
import { PersonalRegion, type FillRecord } from "./root-data";

/** What the render of a visitor's kept page leaves for filling it in (app/entry.server.tsx). */
export type FillSource = FillRecord & {
  /** The root loader's data of the page, the same for everyone (its personal part is apart). */
  rootData: unknown;
  visitorPart: PersonalPart;
  /** The page's translations (an instance shared by the pages with the same messages, never changed). */
  i18n: I18n;
};

/** Where a kept page's personal regions sit in its text, in order (a region's name, or its personal part), and the router they render in. */
export type FillPlan = {
  source: FillSource;
  router: RegionRouter;
  regions: { name: string; start: number; end: number }[];
};

type RegionRouter = { router: ReturnType<typeof createStaticRouter>; context: StaticHandlerContext };

const personalPartRegion = "personal part";

const RegionToRender = createContext<ReactNode>(null);

function RegionOutlet() {
  return useContext(RegionToRender);
}

/**
 * A one-route router at the page's address holding its root data, its route id the root's (as `useFetcher`
 * needs): made once per plan, only read by the renders of its regions.
 */
async function regionRouterOf(source: FillSource, url: string): Promise<RegionRouter> {
  const routes: RouteObject[] = [{ id: "root", path: "*", loader: () => source.rootData, element: <RegionOutlet /> }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error("A region's router answered with a redirect");
  return { router: createStaticRouter(handler.dataRoutes, context), context };
}

/** Each region of the page rendered on its own for `part`, from the element the page rendered it from. */
function renderRegions(source: FillSource, { router, context }: RegionRouter, part: PersonalPart): Map<string, string> {
  const rendered = new Map<string, string>();
  for (const [name, element] of source.regions) {
    const html = renderToString(
      <DocumentPersonalPart value={part}>
        <I18nextProvider i18n={source.i18n}>
          <ToastProvider>
            <RegionToRender value={<PersonalRegion name={name}>{element}</PersonalRegion>}>
              <StaticRouterProvider router={router} context={context} hydrate={false} />
            </RegionToRender>
          </ToastProvider>
        </I18nextProvider>
      </DocumentPersonalPart>,
    );
    rendered.set(name, html);
  }
  rendered.set(personalPartRegion, personalPartScript(part));
  return rendered;
}

/**
 * The plan to fill `html` (a visitor's page rendered with `source`), or null when it cannot be filled: a region
 * rendered on its own for the visitor is empty, is not found exactly once, or two overlap.
 */
async function planFill(html: string, url: string, source: FillSource): Promise<FillPlan | null> {
  const router = await regionRouterOf(source, url);
  const rendered = renderRegions(source, router, source.visitorPart);
  const regions: FillPlan["regions"] = [];
  for (const [name, text] of rendered) {
    const start = html.indexOf(text);
    if (text === "" || start < 0 || html.indexOf(text, start + 1) >= 0) return null;
    regions.push({ name, start, end: start + text.length });
  }
  regions.sort((a, b) => a.start - b.start);
  if (regions.some((region, index) => index > 0 && region.start < regions[index - 1]!.end)) return null;
  return { source, router, regions };
}

/** Whether `part` answers every question the page asked outside its regions as the visitor's did. */
function answersAsVisitor(plan: FillPlan, part: PersonalPart): boolean {
  for (const { question, answer } of plan.source.reads.values()) {
    if (JSON.stringify(question(part)) !== answer) return false;
  }
  return true;
}

/** The page as rendered for `part`: the kept text with its regions rendered again (answersAsVisitor first). */
function fillPage(plan: FillPlan, html: string, part: PersonalPart): string {
  const rendered = renderRegions(plan.source, plan.router, part);
  let filled = "";
  let from = 0;
  for (const region of plan.regions) {
    filled += html.slice(from, region.start) + rendered.get(region.name)!;
    from = region.end;
  }
  return filled + html.slice(from);
}

/** The filler the page cache uses (server/http/page-filler.ts), handed over by the server entry. */
export function createPageFiller(services: ShopServices): PageFiller<PersonalPart, FillSource, FillPlan> {
  return {
    readPersonalPart: (request) =>
      readPersonalPart(services, request, localeOfPath(new URL(request.url).pathname), () => readSessionUserQuickly(services, request.headers)),
    planFill,
    answersAsVisitor,
    fillPage,
  };
}
