import type { Db } from "#server/db/client.ts";
import type { Env } from "#server/env.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { getLaunchChecks, launchSettingsKeys, type LaunchCheck } from "./launch-checklist";

/** The back office's "before you go live" list, from this process's environment and the stored settings. */
export async function getLaunchChecklist(db: Db, args: { env: Env; publicUrl: string }): Promise<LaunchCheck[]> {
  return getLaunchChecks(args.env, args.publicUrl, await getSettings(db, launchSettingsKeys));
}
