// API throughput: GET /api/getListaProdotti (every product in the client form) and
// POST /api/getCategoria through the whole shop (Express, React Router resource route, zod, the
// catalogue queries, JSON), against a bare Node http server that reads the same request and answers
// the same bytes, in the same run, with autocannon at 50 connections. The ratio is what to compare
// between machines. Prints a table and writes bench/results/api.json.
import { compareWithBare, startBareServer } from "./lib/load.mjs";
import { writeResult } from "./lib/results.mjs";
import { startShopForBench } from "./lib/shop-server.mjs";

// Fewer connections than the page benches: one answer is every product (about 240 KB of JSON).
const connections = 10;
const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 10);

const shop = await startShopForBench();
try {
  const cases = [
    { name: "GET /api/getListaProdotti", path: "/api/getListaProdotti", request: { method: "GET" } },
    {
      name: "POST /api/getCategoria",
      path: "/api/getCategoria",
      request: { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ categoria: "A-spasso" }) },
    },
  ];
  const rows = [];
  for (const testCase of cases) {
    const url = `${shop.baseUrl}${testCase.path}`;
    const first = await fetch(url, testCase.request);
    const body = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200) throw new Error(`${testCase.name} answered ${first.status}: ${body.toString().slice(0, 200)}`);
    const bare = await startBareServer(body, first.headers.get("content-type") ?? "application/json");
    try {
      const {
        shop: shopRun,
        bare: bareRun,
        ratio,
      } = await compareWithBare({
        shopUrl: url,
        bareUrl: bare.url,
        connections,
        durationSeconds,
        requests: [testCase.request],
      });
      rows.push({
        call: testCase.name,
        products: JSON.parse(body.toString()).length,
        "KB per answer": Math.round(body.length / 102.4) / 10,
        "shop req/s": Math.round(shopRun.requests.average),
        "shop p50 ms": shopRun.latency.p50,
        "shop p99 ms": shopRun.latency.p99,
        "bare req/s": Math.round(bareRun.requests.average),
        "shop / bare": ratio,
        "non-2xx": shopRun.non2xx,
        errors: shopRun.errors,
      });
    } finally {
      await bare.stop();
    }
  }
  console.table(rows);
  const summary = rows.map((row) => ({
    measure: `API ${row.call}, ${connections} connections`,
    figure: `${row["shop req/s"]} req/s, p99 ${row["shop p99 ms"]} ms`,
    baseline: `${row["bare req/s"]} req/s (bare Node server)`,
    ratio: row["shop / bare"],
  }));
  const file = writeResult("api", { connections, durationSeconds, rows }, summary);
  console.log(`written to ${file}`);
} finally {
  await shop.stop();
}
