// Server-rendered throughput: the product page and a listing through the whole shop
// (Express, React Router SSR, database), against a bare Node http server sending the same bytes,
// measured in the same run with autocannon at 50 connections. The ratio is what to compare
// between machines. Prints a table and writes bench/results/throughput.json.
import { compareWithBare, startBareServer } from "./lib/load.mjs";
import { writeResult } from "./lib/results.mjs";
import { benchPages, startShopForBench } from "./lib/shop-server.mjs";

const connections = 50;
const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 10);

const shop = await startShopForBench();
try {
  const pages = (await benchPages(shop.baseUrl)).filter((page) => page.name !== "home");
  const rows = [];
  for (const page of pages) {
    const url = `${shop.baseUrl}${page.path}`;
    const response = await fetch(url);
    const body = Buffer.from(await response.arrayBuffer());
    const bare = await startBareServer(body, response.headers.get("content-type") ?? "text/html; charset=utf-8");
    try {
      const { shop: shopRun, bare: bareRun, ratio } = await compareWithBare({ shopUrl: url, bareUrl: bare.url, connections, durationSeconds });
      rows.push({
        page: page.name,
        path: page.path,
        built: page.real ? "yes" : "no (coming soon)",
        "KB per page": Math.round(body.length / 102.4) / 10,
        "shop req/s": Math.round(shopRun.requests.average),
        "shop p50 ms": shopRun.latency.p50,
        "shop p99 ms": shopRun.latency.p99,
        "bare req/s": Math.round(bareRun.requests.average),
        "bare p99 ms": bareRun.latency.p99,
        "shop / bare": ratio,
        errors: shopRun.errors + shopRun.non2xx,
      });
    } finally {
      await bare.stop();
    }
  }
  console.table(rows);
  const summary = rows.map((row) => ({
    measure: `server-rendered ${row.page} ${row.path} (${row["KB per page"]} KB), ${connections} connections`,
    figure: `${row["shop req/s"]} req/s, p99 ${row["shop p99 ms"]} ms, ${row.errors} errors`,
    baseline: `${row["bare req/s"]} req/s (bare Node server, same bytes)`,
    ratio: row["shop / bare"],
  }));
  const file = writeResult("throughput", { connections, durationSeconds, rows }, summary);
  console.log(`written to ${file}`);
} finally {
  await shop.stop();
}
