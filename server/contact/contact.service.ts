import type { Locale } from "#common/locale.ts";
import type { ThrottleRule } from "#server/accounts/login-throttle.ts";
import { countAttempt } from "#server/accounts/login-throttle.service.ts";
import type { Db } from "#server/db/client.ts";
import { contactMessages } from "#server/db/schema.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { parseContactMessage, type ContactErrors, type ContactMessageInput } from "./contact.inputs";

/** Messages one client address may send per hour: a person writes one or two, a script thousands. */
export const contactMessageRule: ThrottleRule = { max: 5, windowMs: 60 * 60_000 };

export type SendContactMessageResult = { ok: true; messageId: number } | { ok: false; errors: ContactErrors; throttled?: true };

const languageNames: Record<Locale, string> = { it: "italiano", en: "inglese" };

/** The mail the shop receives: in Italian, the shop's language, whatever the page's language. */
function shopMail(input: ContactMessageInput, locale: Locale, messageId: number) {
  const text = [
    `Nuovo messaggio n. ${messageId} dal modulo contatti del sito.`,
    "",
    `Nome: ${input.name}`,
    `E-mail: ${input.email}`,
    `Telefono: ${input.phone ?? "non indicato"}`,
    `Lingua della pagina: ${languageNames[locale]}`,
    `Oggetto: ${input.subject}`,
    "",
    input.message,
    "",
    `Per rispondere, scrivi a ${input.email}.`,
  ].join("\n");
  return { subject: `Messaggio dal sito: ${input.subject}`, text };
}

/**
 * Checks the contact form; a valid message is stored and an e-mail to the shop queued, in one
 * transaction (both or neither). Bad input stores nothing and comes back as message keys per field;
 * past `contactMessageRule` from one address (`sender`), nothing is stored either.
 */
export async function sendContactMessage(
  db: Db,
  raw: unknown,
  locale: Locale,
  sender?: { clientIp: string; now?: Date },
): Promise<SendContactMessageResult> {
  const parsed = parseContactMessage(raw);
  if (!parsed.ok) return parsed;
  // Only valid messages count: a typo fixed and sent again does not use up the allowance.
  if (sender?.clientIp) {
    const verdict = await countAttempt(db, `contact:ip:${sender.clientIp}`, contactMessageRule, sender.now);
    if (!verdict.allowed) return { ok: false, errors: {}, throttled: true };
  }
  const input = parsed.value;
  return db.transaction(async (tx) => {
    const { shop } = await getSettings(tx, ["shop"]);
    const [row] = await tx
      .insert(contactMessages)
      .values({ name: input.name, email: input.email, phone: input.phone ?? null, subject: input.subject, message: input.message, locale })
      .returning({ id: contactMessages.id });
    const messageId = row!.id;
    await queueEmail(tx, {
      to: shop.email,
      ...shopMail(input, locale, messageId),
      kind: "contact-message",
      locale: "it",
      dedupeKey: `contact-message:${messageId}`,
    });
    return { ok: true as const, messageId };
  });
}
