/**
 * "Before you go live": every setting still at the sample value the shop starts with, or left empty where
 * the live shop needs one, each with where to fix it. Pure: the caller passes the environment and the
 * stored settings.
 */
import { isLocalAddress, type Env } from "#server/env.ts";
import { defaultSettings, type Settings } from "#server/settings/settings.ts";

/**
 * One setting to fix: an environment variable of the server, or a field of the back office's settings page.
 * `code` is also the message key under admin.launch.items; `value` is what it holds now, when worth showing.
 */
export type LaunchCheck =
  | { code: LaunchEnvCode; where: "env"; variable: string; value?: string }
  | { code: LaunchSettingCode; where: "settings"; section: "shop" | "bankTransfer" | "newsletter" | "fiscal"; field: string; value: string }
  | LaunchSafetyCheck;

/**
 * Product safety (GPSR article 19): published products lacking what their offer must show, and manufacturers
 * or responsible persons still the sample's invented ones. `code` is the message key under productSafety.launch.
 */
export type LaunchSafetyCheck = { code: "productSafety" | "sampleContacts"; where: "safety"; count: number };

/** The safety items of the checklist from the counts of what is missing and of sample contacts. */
export function getSafetyLaunchChecks(counts: { productsMissingData: number; sampleContacts: number }): LaunchSafetyCheck[] {
  const checks: LaunchSafetyCheck[] = [];
  if (counts.productsMissingData > 0) checks.push({ code: "productSafety", where: "safety", count: counts.productsMissingData });
  if (counts.sampleContacts > 0) checks.push({ code: "sampleContacts", where: "safety", count: counts.sampleContacts });
  return checks;
}

type LaunchEnvCode = "publicUrlLocal" | "publicUrlHttp" | "mailFromSample" | "noSmtp" | "noStripe" | "stripeTestMode" | "authSecretGenerated";
type LaunchSettingCode = "sampleValue";

/**
 * Shop identity, contacts, bank details and the invoices' fiscal data the sample catalogue comes with: a live
 * shop must have its own (an invoice issued with the sample partita IVA would be another business's).
 */
const sampleFields = {
  shop: ["legalName", "vatNumber", "street", "phone", "whatsapp", "email", "facebookUrl", "instagramUrl"],
  bankTransfer: ["iban", "beneficiary", "bankName"],
  newsletter: ["url"],
  fiscal: ["denomination", "vatNumber", "fiscalCode", "reaNumber"],
} as const satisfies { [K in keyof Settings]?: readonly (keyof Settings[K])[] };

/** Reserved example domains (RFC 2606) and the sample's own, in an address, a link or an e-mail. */
const exampleDomain = /(^|[@./])example(\.[a-z]+)?($|[/:>?#\s])|\.example($|[/:>?#\s])/i;

export function isExampleAddress(value: string): boolean {
  return exampleDomain.test(value);
}

export function getLaunchChecks(env: Env, publicUrl: string, settings: Pick<Settings, keyof typeof sampleFields>): LaunchCheck[] {
  const checks: LaunchCheck[] = [];
  const fromEnv = (code: LaunchEnvCode, variable: string, value?: string) =>
    checks.push({ code, where: "env", variable, ...(value === undefined ? {} : { value }) });

  if (isLocalAddress(publicUrl)) fromEnv("publicUrlLocal", "PUBLIC_URL", publicUrl);
  else if (!publicUrl.startsWith("https://")) fromEnv("publicUrlHttp", "PUBLIC_URL", publicUrl);
  if (isExampleAddress(env.MAIL_FROM)) fromEnv("mailFromSample", "MAIL_FROM", env.MAIL_FROM);
  if (!env.SMTP_URL) fromEnv("noSmtp", "SMTP_URL");
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) fromEnv("noStripe", "STRIPE_SECRET_KEY");
  else if (env.STRIPE_SECRET_KEY.startsWith("sk_test_")) fromEnv("stripeTestMode", "STRIPE_SECRET_KEY");
  if (!env.AUTH_SECRET) fromEnv("authSecretGenerated", "AUTH_SECRET");

  for (const section of Object.keys(sampleFields) as (keyof typeof sampleFields)[]) {
    for (const field of sampleFields[section]) {
      const value = (settings[section] as Record<string, unknown>)[field];
      const sample = (defaultSettings[section] as Record<string, unknown>)[field];
      if (typeof value !== "string") continue;
      if (value === sample || isExampleAddress(value)) checks.push({ code: "sampleValue", where: "settings", section, field, value });
    }
  }
  return checks;
}

export const launchSettingsKeys = Object.keys(sampleFields) as (keyof typeof sampleFields)[];
