import { startShopForBench, root } from "./lib/shop-server.mjs";
const shop = await startShopForBench({ databaseUrl: "postgres://postgres@127.0.0.1:5432/bench_signed_in", appRoot: process.env.APP_ROOT ?? root });
const baseUrl = shop.baseUrl;
const jar = new Map(); const cookie = () => [...jar.values()].join("; ");
const keep = (r) => { for (const h of r.headers.getSetCookie()) { const [p] = h.split(";"); jar.set(p.slice(0, p.indexOf("=")), p); } };
const post = async (path, form) => { const r = await fetch(`${baseUrl}${path}`, { method: "POST", redirect: "manual", headers: { Origin: baseUrl, Cookie: cookie() }, body: new URLSearchParams(form) }); keep(r); return r; };
const email = `one-${Date.now()}@example.com`, password = "Tr3no-Blu-Vesuvio";
await post("/login-register", { intent: "register", name: "Anna Esposito", email, password, passwordConfirm: password, privacy: "on" });
await post("/login-register", { intent: "login", email, password });
const ph = await (await fetch(`${baseUrl}/product/500`, { headers: { Cookie: cookie() } })).text();
const variantId = /<input type="hidden" name="variantId" value="(\d+)"/.exec(ph)[1];
await post("/cart.data", { js: "1", intent: "add", variantId, quantity: "1" });
const fs = await import("node:fs");
for (const p of (process.env.PAGES ?? "/categoria/A-spasso,/product/500").split(",")) {
  await fetch(`${baseUrl}${p}`, { headers: { Cookie: cookie() } }).then((r) => r.text());
  console.log("MARK", p);
  const html = await (await fetch(`${baseUrl}${p}`, { headers: { Cookie: cookie() } })).text();
  fs.writeFileSync(`/tmp/page-${process.env.TAG ?? "x"}-${p.replaceAll("/", "_")}.html`, html);
  console.log(p, html.length, html.includes("Anna"));
}
await shop.stop();
