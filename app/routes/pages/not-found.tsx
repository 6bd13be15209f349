import { data } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { NotFoundPage } from "#app/ui/not-found-page.tsx";
import { getTranslator } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/not-found";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: [] } satisfies MessagesHandle;

export function loader({ url }: Route.LoaderArgs) {
  const t = getTranslator(localeOfPath(url.pathname));
  return data({ meta: { title: t("notFound.metaTitle"), description: t("notFound.title") } }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [...pageMeta(matches, loaderData?.meta), { name: "robots", content: "noindex" }];

export default function NotFound() {
  return <NotFoundPage />;
}
