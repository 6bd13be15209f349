// Add-to-cart throughput: POST /cart.data as the add-to-cart fetcher sends it, through the
// whole shop (Express, React Router action, zod, the cart rules, a database transaction), against a
// bare Node http server that reads the same request and answers the same bytes, in the same run,
// with autocannon at 50 connections. Two cases: a first add (no cookie: a new cart and line each
// time) and a busy cart (signed cookie; every connection alternates "add one" and "remove one" on
// the same line, so the cart stays below the variant's stock and every request is a real change).
// Prints a table and writes bench/results/add-to-cart.json.
import { compareWithBare, startBareServer } from "./lib/load.mjs";
import { writeResult } from "./lib/results.mjs";
import { startShopForBench } from "./lib/shop-server.mjs";

const connections = 50;
const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 10);

const shop = await startShopForBench();
try {
  const variantId = await findAddableVariant(shop.baseUrl);
  const add = new URLSearchParams({ intent: "add", variantId: String(variantId), quantity: "1", js: "1" }).toString();
  const headers = { "content-type": "application/x-www-form-urlencoded", origin: shop.baseUrl };
  const first = await fetch(`${shop.baseUrl}/cart.data`, { method: "POST", headers, body: add });
  const answer = Buffer.from(await first.arrayBuffer());
  const cartCookie = first.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("cart="))
    ?.split(";")[0];
  if (first.status !== 200 || !cartCookie) throw new Error(`add to cart answered ${first.status}: ${answer.toString().slice(0, 200)}`);
  // A second unit, so the line survives the "remove one" requests of the busy-cart case.
  const second = await fetch(`${shop.baseUrl}/cart.data`, { method: "POST", headers: { ...headers, cookie: cartCookie }, body: add });
  const lineId = /"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/.exec(await second.text())?.[1];
  if (!lineId) throw new Error("the add answer names no line");
  const decrease = new URLSearchParams({ intent: "decrease", lineId, js: "1" }).toString();
  const busyHeaders = { ...headers, cookie: cartCookie };

  const cases = [
    { name: "first add (new cart)", requests: [{ method: "POST", headers, body: add }] },
    {
      name: "busy cart (add, remove one)",
      requests: [
        { method: "POST", headers: busyHeaders, body: add },
        { method: "POST", headers: busyHeaders, body: decrease },
      ],
    },
  ];
  const bare = await startBareServer(answer, first.headers.get("content-type") ?? "text/x-script");
  const rows = [];
  try {
    for (const testCase of cases) {
      const {
        shop: shopRun,
        bare: bareRun,
        ratio,
      } = await compareWithBare({
        shopUrl: `${shop.baseUrl}/cart.data`,
        bareUrl: bare.url,
        connections,
        durationSeconds,
        requests: testCase.requests,
      });
      rows.push({
        case: testCase.name,
        "shop req/s": Math.round(shopRun.requests.average),
        "shop p50 ms": shopRun.latency.p50,
        "shop p99 ms": shopRun.latency.p99,
        "bare req/s": Math.round(bareRun.requests.average),
        "shop / bare": ratio,
        "non-2xx": shopRun.non2xx,
        errors: shopRun.errors,
      });
    }
  } finally {
    await bare.stop();
  }
  console.table(rows);
  const summary = rows.map((row) => ({
    measure: `add to cart, ${row.case}, ${connections} connections`,
    figure: `${row["shop req/s"]} req/s, ${row["non-2xx"] + row.errors} errors`,
    baseline: `${row["bare req/s"]} req/s (bare Node server)`,
    ratio: row["shop / bare"],
  }));
  const file = writeResult("add-to-cart", { connections, durationSeconds, variantId, rows }, summary);
  console.log(`written to ${file}`);
} finally {
  await shop.stop();
}

/** A variant that takes 60 units (the busy cart's line never goes above 2 + 50 connections). */
async function findAddableVariant(baseUrl) {
  for (let variantId = 1; variantId < 400; variantId++) {
    const response = await fetch(`${baseUrl}/cart.data`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
      body: new URLSearchParams({ intent: "add", variantId: String(variantId), quantity: "60", js: "1" }),
    });
    await response.arrayBuffer();
    if (response.status === 200) return variantId;
  }
  throw new Error("no variant with 60 in stock");
}
