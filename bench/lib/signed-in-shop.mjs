// A signed-in customer of the shop and her loads, shared by bench/signed-in.mjs and
// bench/vendure-side-by-side.mjs: her account made through the shop's own forms, the whole catalogue's paths
// (decision 0094), the visitors' pass that keeps them, and one measured load as a browser asks.
import { cpuSecondsOf, runLoad } from "./load.mjs";

export const browserEncoding = "gzip, deflate, br, zstd";
// The generated catalogue's categories (server/catalog/taxonomy.ts, lib/scale-catalogue.ts).
export const categorySlugs = ["A-spasso", "Bagnetto", "arredamento", "sicurezza", "gioco-e-relax", "abbigliamento", "pappa"];

/**
 * Every path a whole-catalogue load asks in turn, by page name: each category's listing pages (as many as its
 * first page links to), every product page, their `.data`, and the root's loader data of each product page.
 */
export async function catalogueOf(baseUrl, productCount) {
  const listings = [];
  for (const slug of categorySlugs) {
    const html = await (await fetch(`${baseUrl}/categoria/${slug}`)).text();
    const last = Math.max(1, ...[...html.matchAll(/[?&]page=(\d+)/g)].map((match) => Number(match[1])));
    for (let page = 1; page <= last; page += 1) listings.push(page === 1 ? `/categoria/${slug}` : `/categoria/${slug}?page=${page}`);
  }
  const products = Array.from({ length: productCount }, (_, index) => `/product/${index + 1}`);
  const dataPath = (pagePath) => pagePath.replace(/(\?|$)/, ".data$1");
  return {
    category: listings,
    product: products,
    "category (data)": listings.map(dataPath),
    "product (data)": products.map(dataPath),
    "product (visitor)": products,
    "personal part": products.map((product) => `${product}.data?_routes=root`),
  };
}

/** Every one of `paths` asked once by a visitor (4 at a time): kept, as in a shop visitors browse. */
export async function askedByVisitors(baseUrl, paths) {
  let next = 0;
  const visitor = async () => {
    while (next < paths.length) await (await fetch(`${baseUrl}${paths[next++]}`, { headers: { "accept-encoding": browserEncoding } })).arrayBuffer();
  };
  await Promise.all([visitor(), visitor(), visitor(), visitor()]);
}

/** Resolves once the process has used under a twentieth of a core for two seconds (60 s at most). */
export async function quietened(pid) {
  const until = Date.now() + 60_000;
  let quietSince = Date.now();
  while (Date.now() < until && Date.now() - quietSince < 2_000) {
    const before = cpuSecondsOf(pid);
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (cpuSecondsOf(pid) - before > 0.025) quietSince = Date.now();
  }
}

/**
 * autocannon's request sequence for `page` on `shop` ({ headers, catalogue?, next }): with a catalogue each
 * request asks the page's next path; `page.visitor` asks without her cookies, `page.headers` with those.
 */
export function requestsOf(shop, page) {
  const paths = shop.catalogue?.[page.name];
  const headers = page.headers ?? (page.visitor ? { "accept-encoding": browserEncoding, accept: "text/html" } : shop.headers);
  if (!paths) return [{ method: "GET", headers }];
  return [{ method: "GET", headers, setupRequest: (request) => ({ ...request, path: paths[(shop.next = (shop.next + 1) % paths.length)] }) }];
}

/** The `name=value` pairs of a response's Set-Cookie headers, added to `jar`. */
function keepCookies(jar, response) {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const name = pair.slice(0, pair.indexOf("="));
    jar.set(name, pair);
  }
}

/**
 * A new customer signed up and signed in through the shop's own forms, as issue 37 measures her: one unit of the
 * first variant of the product page at `productPath` in her cart, a gift list of hers wishing two of it and chosen
 * to fill while she browses (her gift-list bar), and two products on her wishlist and one to compare (the cookie the
 * shop's scripts write). The Cookie header her browser would send. Throws when any step is refused.
 */
export async function signedInCustomer(baseUrl, productPath) {
  const jar = new Map();
  const cookie = () => [...jar.values()].join("; ");
  const email = `bench-${process.pid}-${Date.now().toString(36)}@example.com`;
  const password = "Tr3no-Blu-Vesuvio";
  const post = async (path, form) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: baseUrl, Cookie: cookie() },
      body: new URLSearchParams(form),
    });
    if (response.status >= 400) throw new Error(`POST ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    keepCookies(jar, response);
    return response;
  };
  await post("/login-register", { intent: "register", name: "Anna Esposito", email, password, passwordConfirm: password, privacy: "on" });
  const login = await post("/login-register", { intent: "login", email, password });
  if (login.status !== 302) throw new Error(`login answered ${login.status}`);
  const productHtml = await (await fetch(`${baseUrl}${productPath}`, { headers: { Cookie: cookie() } })).text();
  const variantId = /<input type="hidden" name="variantId" value="(\d+)"/.exec(productHtml)?.[1];
  if (!variantId) throw new Error(`no add-to-cart form on ${productPath}`);
  await post("/cart.data", { js: "1", intent: "add", variantId, quantity: "1" });
  const giftListId = await madeGiftList(baseUrl, post, cookie);
  await post("/crea-lista-nascita", { intent: "fill-start", giftListId });
  if (!jar.has("gift_list_filling")) throw new Error("choosing her gift list to fill set no cookie");
  // Two units of the same variant wished on it, as the product page's "add to my list" posts them.
  await post("/crea-lista-nascita.data", { intent: "gift-list-add", giftListId, variantId, quantity: "2", js: "1" });
  const part = await (await fetch(`${baseUrl}/personal`, { headers: { Cookie: cookie() } })).json();
  if (part.giftListFilling?.unitCount !== 2) throw new Error(`her gift list was not filled: ${JSON.stringify(part.giftListFilling)}`);
  jar.set("saved_items", `saved_items=w=1.2&c=3&t=${Date.now()}`);
  return cookie();
}

/**
 * Her gift list made through the form of /crea-lista-nascita (the event date as the form's date field sends it,
 * yyyy-mm-dd, two months ahead): its id, read back from her personal part. Throws when the list is not made.
 */
async function madeGiftList(baseUrl, post, cookie) {
  const eventDate = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  const made = await post("/crea-lista-nascita", {
    intent: "create",
    title: "La lista di Anna",
    type: "nascita",
    eventDate,
    celebratedNames: "Bianca",
    shippingAddressId: "collection",
    visibility: "public",
  });
  if (made.status !== 303 || !made.headers.get("location")?.includes("done=created"))
    throw new Error(`her gift list was not made: ${made.status} ${made.headers.get("location")}`);
  const part = await (await fetch(`${baseUrl}/personal`, { headers: { Cookie: cookie() } })).json();
  const list = part.giftListChoices?.find((choice) => choice.title === "La lista di Anna");
  if (!list) throw new Error("her gift list is not among her choices");
  return list.id;
}

/** Checks that `url` answers 200 and, when `forHer`, that the answer names her (rendered or filled in for her). */
export async function assertAnsweredForCustomer(url, headers, forHer) {
  const response = await fetch(url, { headers });
  const html = await response.text();
  if (response.status !== 200 || (forHer && !html.includes("Anna"))) throw new Error(`${url}: ${response.status}, not the signed-in customer's page`);
}

/**
 * One load of `requests` on `url` after a 2-second warm-up: requests/s, p99, the CPU per answer of the
 * process `pid` (user + system) and the bytes per answer as sent, headers included.
 */
export async function measureLoad({ url, pid, requests, connections, durationSeconds }) {
  await runLoad({ url, connections, durationSeconds: 2, requests });
  const cpuBefore = cpuSecondsOf(pid);
  const result = await runLoad({ url, connections, durationSeconds, requests });
  // No answer within autocannon's 10-second timeout (a starved machine): no CPU per request to give.
  const cpuMs = result.requests.total > 0 ? ((cpuSecondsOf(pid) - cpuBefore) * 1000) / result.requests.total : null;
  const bytes = result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : null;
  return { reqPerSecond: result.requests.average, p99: result.latency.p99, cpuMs, bytes, errors: result.errors, non2xx: result.non2xx };
}

/** The median of the figures given (null ones left out); null when there are none. */
export const median = (values) => {
  const known = values.filter((value) => value !== null && Number.isFinite(value)).toSorted((a, b) => a - b);
  return known.length > 0 ? known[Math.floor(known.length / 2)] : null;
};
export const round1 = (value) => (value === null ? null : Math.round(value * 10) / 10);
