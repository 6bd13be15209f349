/**
 * Test data: the shape of https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml (abridged),
 * and a local HTTP endpoint that serves it, so no test ever reaches the network.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export function ecbDailyXml(rates: Record<string, string>, time = "2024-05-10") {
  const cubes = Object.entries(rates)
    .map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='${time}'>
${cubes}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>`;
}

export type RatesReply = { status?: number; body: string; contentType?: string };

/**
 * A local rates endpoint on 127.0.0.1 and a free port. `reply` is what the next requests get;
 * change it between refreshes. `requests` counts what reached it.
 */
export async function startRatesEndpoint(reply: RatesReply) {
  const endpoint = { reply, requests: 0 };
  const server = http.createServer((_req, res) => {
    endpoint.requests++;
    const { status = 200, body, contentType = "text/xml; charset=utf-8" } = endpoint.reply;
    res.writeHead(status, { "Content-Type": contentType });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint,
    url: `http://127.0.0.1:${port}/stats/eurofxref/eurofxref-daily.xml`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
