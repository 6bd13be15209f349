import type { Db } from "#server/db/client.ts";
import type { Env } from "#server/env.ts";
import { countProductsMissingSafetyData, listSafetyContacts } from "#server/product-safety/product-safety.service.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { getLaunchChecks, getSafetyLaunchChecks, isExampleAddress, launchSettingsKeys, type LaunchCheck } from "./launch-checklist";

/** The back office's "before you go live" list, from this process's environment, the stored settings and the products' safety data. */
export async function getLaunchChecklist(db: Db, args: { env: Env; publicUrl: string }): Promise<LaunchCheck[]> {
  const [settings, productsMissingData, contacts] = await Promise.all([
    getSettings(db, launchSettingsKeys),
    countProductsMissingSafetyData(db),
    listSafetyContacts(db),
  ]);
  const sampleContacts = contacts.filter((contact) => isExampleAddress(contact.email)).length;
  return [...getLaunchChecks(args.env, args.publicUrl, settings), ...getSafetyLaunchChecks({ productsMissingData, sampleContacts })];
}
