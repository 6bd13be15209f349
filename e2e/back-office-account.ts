import { spawnSync } from "node:child_process";
import path from "node:path";

/**
 * The back-office account e2e/server.ts makes on the fresh data folder before the shop starts (the
 * embedded database takes one process at a time), for journeys that read the back office (the outbox).
 */
export const backOfficeAccount = { email: "negozio-e2e@bimbifelici.test", password: "Tr3no-Blu-Vesuvio-Ufficio" } as const;

/** False when the journeys run against a server someone else started (E2E_BASE_URL): it has no such account. */
export function hasBackOfficeAccount(): boolean {
  return process.env.E2E_BACK_OFFICE === "1";
}

/**
 * `npm run admin:create` on a data folder before a shop opens it (PGlite: one process per folder). Used by
 * e2e/server.ts for the shared shop and by journeys that start a shop of their own.
 */
export function createBackOfficeAccount(options: { dataDir: string; mediaDir: string; email: string; password: string }) {
  const root = path.resolve(import.meta.dirname, "..");
  const made = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), "server/accounts/admin-cli.ts", options.email, "--password", options.password],
    {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: options.dataDir, MEDIA_DIR: options.mediaDir, LOG_LEVEL: "silent" },
      encoding: "utf8",
    },
  );
  if (made.status !== 0) throw new Error(`e2e: the back-office account ${options.email} could not be made: ${made.stderr}${made.stdout}`);
}
