/**
 * Data folders made once per run and copied by every shop the journeys start: a first start on an empty folder
 * migrates and seeds the embedded database, and the back-office account is made by a second process; that took
 * 20-45 s per shop on CI's two cores, a copy takes a tenth of a second (docs/decisions/0111-e2e-shop-templates.md).
 * e2e/server.ts makes them and names their folder in E2E_SHOP_TEMPLATES for the workers.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { backOfficeAccount, createBackOfficeAccount } from "./back-office-account";

/** "seeded": migrated, default settings, the sample catalogue. "backOffice": the same and back-office-account.ts's account. */
export type ShopTemplate = "seeded" | "backOffice";

const root = path.resolve(import.meta.dirname, "..");

export function makeShopTemplates(folder: string, mediaDir: string) {
  const seeded = path.join(folder, "seeded");
  const made = spawnSync(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "server/db/cli.ts", "seed"], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: seeded, MEDIA_DIR: mediaDir, LOG_LEVEL: "silent" },
    encoding: "utf8",
  });
  if (made.status !== 0) throw new Error(`e2e: the seeded data folder could not be made: ${made.stderr}${made.stdout}`);
  const withBackOffice = path.join(folder, "backOffice");
  fs.cpSync(seeded, withBackOffice, { recursive: true });
  createBackOfficeAccount({ dataDir: withBackOffice, mediaDir, ...backOfficeAccount });
  process.env.E2E_SHOP_TEMPLATES = folder;
}

/** Copies a template into `dataDir` (which must not exist yet); false when this run made none (a shop started by hand). */
export function copyShopTemplate(template: ShopTemplate, dataDir: string): boolean {
  const folder = process.env.E2E_SHOP_TEMPLATES;
  if (!folder || !fs.existsSync(path.join(folder, template))) return false;
  fs.cpSync(path.join(folder, template), dataDir, { recursive: true });
  return true;
}
