/**
 * "Find my order" for a guest who lost its e-mail: given the order number and the e-mail it was placed with,
 * the shop mails the order's link (its page and its withdrawal function) to that e-mail, through the outbox.
 * The answer is the same whether or not the pair matches, so a guess shows or confirms no order; attempts
 * are counted per client address and per e-mail (docs/decisions/0090-withdrawal-function-for-guests.md).
 */
import { and, eq, sql } from "drizzle-orm";
import type { ZodError } from "zod";
import { hashEmail } from "#server/accounts/login-throttle.ts";
import { countAttempt } from "#server/accounts/login-throttle.service.ts";
import type { Db } from "#server/db/client.ts";
import { orders } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { orderPageUrl, withdrawalPageUrl, type OrderMailLinks } from "./order-emails";
import { OrderLinkRequest } from "./order-link.inputs";

/** Enough for a typo or two; a client trying many numbers, or many people's e-mails, is stopped. */
export const orderLinkRules = {
  perIp: { max: 20, windowMs: 15 * 60_000 },
  perEmail: { max: 3, windowMs: 15 * 60_000 },
} as const;

export type OrderLinkResult = { ok: true } | { ok: false; errors: Record<string, string>; retryAfterSeconds?: number };

/** Field errors as message keys, from the request's schema. */
function fieldErrors(error: ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message.startsWith("orderLookup.") ? issue.message : `orderLookup.errors.${field === "email" ? "email" : "orderNumber"}`;
  }
  return errors;
}

export async function requestOrderLink(
  db: Db,
  args: { raw: unknown; clientIp: string; now: Date; links: OrderMailLinks | null },
): Promise<OrderLinkResult> {
  const parsed = OrderLinkRequest.safeParse(args.raw);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  const { orderNumber, email } = parsed.data;
  const byIp = await countAttempt(db, `order-link:ip:${args.clientIp}`, orderLinkRules.perIp, args.now);
  const byEmail = await countAttempt(db, `order-link:email:${hashEmail(email)}`, orderLinkRules.perEmail, args.now);
  const refused = [byIp, byEmail].filter((verdict) => !verdict.allowed);
  if (refused.length > 0) {
    const waitMs = Math.max(...refused.map((verdict) => (verdict.allowed ? 0 : verdict.retryAfterMs)));
    return { ok: false, errors: { form: "orderLookup.errors.tooMany" }, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
  const [order] = await db
    .select({ id: orders.id, number: orders.number, email: orders.email, locale: orders.locale })
    .from(orders)
    .where(and(eq(orders.number, orderNumber), eq(sql`lower(${orders.email})`, email.toLowerCase())));
  if (order) await queueOrderLinkMail(db, { order: { ...order, locale: order.locale === "en" ? "en" : "it" }, links: args.links });
  return { ok: true };
}

/** The mail with the order's links, in the order's language, to the order's own e-mail. */
async function queueOrderLinkMail(
  db: Db,
  args: { order: { id: string; number: number; email: string; locale: "it" | "en" }; links: OrderMailLinks | null },
): Promise<void> {
  const { order } = args;
  const t = getTranslator(order.locale);
  const { shop } = await getSettings(db, ["shop"]);
  const text = (key: string) => t(`orderLookup.mail.${key}`, { number: order.number, shopName: shop.name });
  await queueEmail(db, {
    to: order.email,
    kind: "order-link",
    locale: order.locale,
    ...renderEmail({
      locale: order.locale,
      shop,
      siteUrl: args.links?.publicUrl,
      subject: text("subject"),
      heading: text("heading"),
      paragraphs: [text("intro")],
      links: args.links ? [{ label: text("viewOrder"), url: orderPageUrl(args.links, order) }] : undefined,
      action: args.links ? { label: t("afterSales.withdraw"), url: withdrawalPageUrl(args.links, order) } : undefined,
      footnote: text("ignore"),
    }),
  });
}
