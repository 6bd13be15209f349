/**
 * The pages a mail's link opens (newsletter and stock-alert confirmation and unsubscribe): opening the link
 * shows one button and changes nothing, as mail scanners follow links; the button's post does the link's work,
 * then Post/Redirect/Get so a reload shows the page's "done" state instead of a spent link.
 */
import { data, redirect } from "react-router";
import type { ZodType } from "zod";
import { localeOfPath } from "#common/locale.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";

/** The page's meta texts (`<metaPage>.metaTitle`, ...), the link's token when well formed, and whether it was just done. */
export function loadMailLinkPage(url: URL, tokenSchema: ZodType<string>, metaPage: string) {
  const token = tokenSchema.safeParse(url.searchParams.get("token") ?? "");
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), metaPage),
    token: token.success ? token.data : null,
    done: url.searchParams.get("done") === "1",
  };
}

type LinkResult<Reason> = { ok: true } | { ok: false; error: Reason };

/**
 * The button's post: `act` does the link's work with the posted token (its service parses it). A body that is
 * not a form counts as no token: the service's "link not valid" answer, never a server error.
 * `tokenFromLink`: a mail client's one-click unsubscribe (RFC 8058) posts "List-Unsubscribe=One-Click" to the
 * very link of the List-Unsubscribe header, maybe without a form body: the link's own token then stands in.
 */
export async function answerMailLinkPost<Reason>(
  request: Request,
  url: URL,
  act: (token: unknown) => Promise<LinkResult<Reason>>,
  { tokenFromLink = false } = {},
) {
  const form = await request.formData().catch(() => new FormData());
  const token = form.get("token") ?? (tokenFromLink ? url.searchParams.get("token") : null);
  const result = await act(token);
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  throw redirect(`${url.pathname}?done=1`);
}
