import net from "node:net";
import type { AddressInfo } from "node:net";
import { expect, test } from "vitest";
import { acceptsConnections, waitForPort } from "./health";

function listen(): Promise<net.Server> {
  return new Promise((resolve) => {
    const server = net.createServer((socket) => socket.end());
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

test("a port answers while something listens on it, and no longer once it has closed", async () => {
  const server = await listen();
  const { port } = server.address() as AddressInfo;
  expect(await acceptsConnections("127.0.0.1", port)).toBe(true);
  await waitForPort("127.0.0.1", port, { name: "listener", timeoutMs: 2_000 });
  await new Promise((resolve) => server.close(resolve));
  expect(await acceptsConnections("127.0.0.1", port)).toBe(false);
  await expect(waitForPort("127.0.0.1", port, { name: "listener", timeoutMs: 300 })).rejects.toThrow(
    `listener: nothing listens on 127.0.0.1:${port} after 0 s`,
  );
});

// Waiting out the 10 minutes would fail the test by its own timeout.
test("waiting for a process that exited stops at once with its reason", async () => {
  await expect(waitForPort("127.0.0.1", 9, { name: "nginx", timeoutMs: 600_000, exited: () => "exit code 1; see error.log" })).rejects.toThrow(
    "nginx exited during start-up: exit code 1; see error.log",
  );
});
