/**
 * The accounts e-mails (verify the address, reset the password, someone tried to register with your
 * address), written to the outbox in the person's language with the shop's template.
 */
import { localizedHref, type Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { getSettings } from "#server/settings/settings.service.ts";

type MailTarget = { db: Db; publicUrl: string; locale: Locale; to: string; name: string };

/** An absolute link to one of the shop's pages in `locale`, e.g. /en/reset-password?token=... */
export function accountPageUrl(publicUrl: string, locale: Locale, path: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `${publicUrl}${localizedHref(path, locale)}${search ? `?${search}` : ""}`;
}

async function queueAccountEmail(
  { db, publicUrl, locale, to, name }: MailTarget,
  kind: "verify-email" | "password-reset" | "existing-account",
  action: { url: string },
) {
  const t = getTranslator(locale);
  const { shop } = await getSettings(db, ["shop"]);
  const texts = (key: string) => t(`auth.mail.${kind}.${key}`, { name, shopName: shop.name });
  await queueEmail(db, {
    to,
    kind,
    locale,
    ...renderEmail({
      locale,
      shop,
      siteUrl: publicUrl,
      subject: texts("subject"),
      heading: texts("heading"),
      paragraphs: [texts("body")],
      action: { label: texts("action"), url: action.url },
      footnote: texts("footnote"),
    }),
  });
}

export function queueVerificationEmail(target: MailTarget, token: string) {
  return queueAccountEmail(target, "verify-email", { url: accountPageUrl(target.publicUrl, target.locale, "/verify-email", { token }) });
}

export function queuePasswordResetEmail(target: MailTarget, token: string) {
  return queueAccountEmail(target, "password-reset", { url: accountPageUrl(target.publicUrl, target.locale, "/reset-password", { token }) });
}

/** Registration with an address that has an account: its owner is told, the page says nothing. */
export function queueExistingAccountEmail(target: MailTarget) {
  return queueAccountEmail(target, "existing-account", { url: accountPageUrl(target.publicUrl, target.locale, "/forgot-password") });
}
