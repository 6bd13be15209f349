/**
 * Error pages reached without JavaScript: a form posted to every page of app/routes.ts (a visitor, a
 * customer on the back office), and the 401, 403, 404 and 405 pages in Italian and English. Each answer
 * is a page in the page's language, inside the shop's frame, with its own title: never a message key.
 */
import { expect, test } from "vitest";
import it from "#messages/it.json";
import { cookieHeaderOf, useShopWithVisitors, type HttpAnswer, type InProcessShop } from "./in-process-shop";
import type { ConcreteRoute } from "./page-routes";

const slow = { timeout: 240_000 };
let shop: InProcessShop;
let routes: ConcreteRoute[];
let customer: string;

useShopWithVisitors((started) => ({ shop, routes, customer } = started));

/** Every message key of the catalogue, plural forms under their key. */
function keysOf(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix.replace(/_(zero|one|two|few|many|other)$/, "")];
  return Object.entries(node).flatMap(([name, child]) => keysOf(child, prefix ? `${prefix}.${name}` : name));
}
const messageKeys = new Set(keysOf(it));

/** The text a person sees: no scripts, styles or tags. */
const visibleText = (html: string) =>
  html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

/** Dotted words of the page that are message keys, or look like one ("loginRequired.title"). */
const rawKeysIn = (text: string) =>
  [...text.matchAll(/[A-Za-z][\w-]*(?:\.[\w-]+)+/g)]
    .map(([word]) => word)
    .filter((word) => messageKeys.has(word) || /^[a-z]+[A-Z]\w*\.[a-z]\w*$/.test(word));

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";

/** A translated page in its language, inside the shop's frame, titled "<what happened> | Bimbi Felici". */
function expectShopPage(answer: HttpAnswer, url: string, expectedTitle?: string) {
  const where = `${url} (${answer.status})`;
  expect(answer.status, where).toBeLessThan(500);
  expect(rawKeysIn(visibleText(answer.body)), where).toEqual([]);
  expect(answer.body, where).toContain(`<html lang="${url.startsWith("/en") ? "en" : "it"}"`);
  expect(titleOf(answer.body), where).toMatch(/ \| Bimbi Felici$/);
  if (expectedTitle) expect(titleOf(answer.body), where).toBe(`${expectedTitle} | Bimbi Felici`);
  // The shop's frame: skip link, header and footer around the page.
  expect(answer.body, where).toContain('<main id="main"');
  expect(answer.body, where).toContain("<footer");
}

const post = (url: string, form: Record<string, string>, cookie?: string) => shop.request(url, { form, cookie, headers: { Origin: shop.publicUrl } });

/** Posts as a browser without JavaScript does: a redirect is followed to the page it leads to. */
async function postAndFollow(url: string, form: Record<string, string>): Promise<{ answer: HttpAnswer; url: string }> {
  const answer = await post(url, form);
  if (answer.status < 300 || answer.status >= 400 || !answer.location) return { answer, url };
  const next = new URL(answer.location, shop.publicUrl);
  const target = `${next.pathname}${next.search}`;
  return { answer: await shop.request(target, { cookie: cookieHeaderOf(answer) }), url: target };
}

test("a form posted without JavaScript to any page answers a translated page in the shop's frame", slow, async () => {
  const pages = routes.filter((route) => route.isPage);
  expect(pages.length).toBeGreaterThan(40);
  for (const page of pages) {
    const { answer, url } = await postAndFollow(page.url, { intent: "sconosciuto" });
    expectShopPage(answer, url);
  }
});

test("a customer posting to the back office gets the translated 'restricted area' page", slow, async () => {
  // The owner's setup page is not staff-only: anyone with its link may post to it (decision 0086).
  const adminPages = routes.filter((route) => route.isPage && /^(\/en)?\/admin/.test(route.url) && !/^(\/en)?\/admin\/setup$/.test(route.url));
  expect(adminPages.length).toBeGreaterThan(10);
  for (const { url, hasAction } of adminPages) {
    const answer = await post(url, { intent: "sconosciuto" }, customer);
    expectShopPage(answer, url);
    // A page with no form to post to answers 405 before any check of who posted.
    if (!hasAction) continue;
    expect(answer.status, url).toBe(403);
    const refusal = url.startsWith("/en")
      ? "This page is reserved for the shop's administrators."
      : "Questa pagina è riservata agli amministratori del negozio.";
    expect(visibleText(answer.body), url).toContain(refusal);
  }
});

test("the 401, 404 and 405 pages of a post speak the page's language, title included", slow, async () => {
  const cases = [
    { url: "/crea-lista-nascita", status: 401, title: "Accedi per continuare", text: "Accedi o registrati" },
    { url: "/en/crea-lista-nascita", status: 401, title: "Please log in to continue", text: "Log in or register" },
    { url: "/ordine/00000000-0000-4000-8000-000000000000", status: 404, title: "Pagina non trovata", text: "OPPS! Pagina o Prodotto non trovato" },
    { url: "/en/ordine/00000000-0000-4000-8000-000000000000", status: 404, title: "Page not found", text: "OOPS! Page or product not found" },
    { url: "/pagina-che-non-esiste", status: 405, title: "Richiesta non valida", text: "Torna alla home" },
    { url: "/en/pagina-che-non-esiste", status: 405, title: "Invalid request", text: "Back to the home page" },
  ];
  for (const { url, status, title, text } of cases) {
    const answer = await post(url, { intent: "create", title: "Lista di prova" });
    expect(answer.status, url).toBe(status);
    expectShopPage(answer, url, title);
    expect(visibleText(answer.body), url).toContain(text);
  }
});
