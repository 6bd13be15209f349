/**
 * Invitations (`lista-regalo/send-emails`, docs/rules.md#http-api): the list's link and code to up to 50
 * addresses per send, each queued in the outbox (sent and retried by the mail job, never lost) and
 * recorded, so the owner sees who was invited and when. No marketing content.
 */
import { and, desc, eq } from "drizzle-orm";
import { formatDate } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { giftListInvitations } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { InvitationInput, parseGiftListForm, type GiftListFieldErrors } from "./gift-list.inputs";
import { getOwnGiftList, type NotFound } from "./gift-list.service";

export type InvitationResult = { ok: true; sent: number } | { ok: false; errors: GiftListFieldErrors; bad?: string[] } | NotFound;

export async function sendGiftListInvitations(
  db: Db,
  args: { userId: string; giftListId: unknown; input: unknown; locale: Locale; publicUrl: string; inviterName: string },
): Promise<InvitationResult> {
  const list = await getOwnGiftList(db, args.userId, args.giftListId);
  if (!list) return { ok: false, error: "not-found" };
  const parsed = parseGiftListForm(InvitationInput, args.input);
  if (!parsed.ok) return parsed;
  if (list.status === "closed") return { ok: false, errors: { emails: "giftLists.errors.closed" } };
  const t = getTranslator(args.locale);
  const { shop } = await getSettings(db, ["shop"]);
  const url = `${args.publicUrl}${localizedHref(`/lista-nascita/${list.code}`, args.locale)}`;
  const mail = renderEmail({
    locale: args.locale,
    shop,
    siteUrl: args.publicUrl,
    subject: t("giftLists.mail.invitation.subject", { name: args.inviterName, title: list.title }),
    preheader: t("giftLists.mail.invitation.preheader", { names: list.celebratedNames }),
    heading: list.title,
    paragraphs: [
      t("giftLists.mail.invitation.intro", { name: args.inviterName, type: t(`giftLists.types.${list.type}`).toLowerCase() }),
      ...(list.messageToGuests ? [list.messageToGuests] : []),
    ],
    details: [
      [t("giftLists.fields.celebratedNames"), list.celebratedNames],
      [t("giftLists.fields.eventDate"), formatDate(list.eventDate, args.locale)],
      [t("giftLists.fields.code"), list.code],
    ],
    action: { label: t("giftLists.mail.invitation.action"), url },
    footnote: t("giftLists.mail.invitation.footnote"),
  });
  await db.transaction(async (tx) => {
    for (const email of parsed.value.emails) {
      const outboxEmailId = await queueEmail(tx, { to: email, kind: "gift-list-invitation", locale: args.locale, ...mail });
      await tx.insert(giftListInvitations).values({ giftListId: list.id, email, outboxEmailId });
    }
  });
  return { ok: true, sent: parsed.value.emails.length };
}

/** Who was invited and when, newest first (the owner only). */
export async function listInvitations(db: Db, args: { userId: string; giftListId: unknown }) {
  const list = await getOwnGiftList(db, args.userId, args.giftListId);
  if (!list) return null;
  return db
    .select({ email: giftListInvitations.email, createdAt: giftListInvitations.createdAt })
    .from(giftListInvitations)
    .where(and(eq(giftListInvitations.giftListId, list.id)))
    .orderBy(desc(giftListInvitations.createdAt), desc(giftListInvitations.id));
}
