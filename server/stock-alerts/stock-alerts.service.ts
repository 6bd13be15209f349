/**
 * Back-in-stock alerts: a customer asks, on the product page, to be told when an out-of-stock colour and
 * size comes back; guests confirm by the link of a mail (double opt-in), signed-in customers by their
 * click. When the stock ledger sees the variant go from 0 to more, `sendBackInStockAlerts` queues one
 * mail per confirmed alert in that same transaction and ends the alert. The only writer of stock_alerts.
 * See docs/decisions/0067-back-in-stock-alerts.md.
 */
import { and, count, eq, gt, inArray } from "drizzle-orm";
import { localizedHref, type Locale } from "#common/locale.ts";
import { formatSize, isOneSize } from "#common/sizes.ts";
import { takesStockAlert } from "#common/variant-selection.ts";
import { colourName } from "#common/variant-label.ts";
import { countAttempt } from "#server/accounts/login-throttle.service.ts";
import { hashEmail } from "#server/accounts/login-throttle.ts";
import type { Db } from "#server/db/client.ts";
import { productColours, productListing, products, productVariants, stockAlerts } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { hashToken, newToken } from "#server/newsletter/newsletter.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { StockAlertRequestInput, StockAlertToken } from "./stock-alerts.inputs";
import {
  confirmLinkLifetimeMs,
  planStockAlertRequest,
  selectionSearchOf,
  stockAlertMailsPerAddressRule,
  stockAlertRequestRule,
  type StockAlertStatus,
} from "./stock-alerts";

export type StockAlertRequestResult = { ok: true; confirmed: boolean } | { ok: false; error: string; throttled?: true };

/** Who asks: the page's language and address, the client address (throttle), the signed-in customer if any. */
export type StockAlertCaller = {
  locale: Locale;
  publicUrl: string;
  clientIp?: string;
  user?: { id: string; email: string; emailVerified: boolean } | null;
  now?: Date;
};

const confirmPath = "/avviso-disponibilita/conferma";
const unsubscribePath = "/avviso-disponibilita/cancellazione";

const linkTo = (siteUrl: string, locale: Locale, path: string, token: string) => `${siteUrl}${localizedHref(path, locale)}?token=${token}`;

/** The variant with what its mails name: product, colour, size, and whether an alert may be asked for. */
async function loadVariant(db: Db, variantId: number, locale: Locale) {
  const [row] = await db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      size: productVariants.size,
      stock: productVariants.stock,
      isPreorder: productVariants.isPreorder,
      colour: productColours.colour,
      name: locale === "en" ? products.nameEn : products.nameIt,
      isPublished: productListing.isPublished,
      isOnRequest: productListing.isOnRequest,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .innerJoin(productListing, eq(productListing.productId, productVariants.productId))
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(eq(productVariants.id, variantId));
  return row;
}

type AlertVariant = NonNullable<Awaited<ReturnType<typeof loadVariant>>>;

/** "Passeggino Trio — Blu, taglia M": the product, colour and size the alert is about, as the mails name them. */
function variantDetails(variant: AlertVariant, locale: Locale): [string, string][] {
  const t = getTranslator(locale);
  const rows: [string, string][] = [[t("stockAlerts.mail.product"), variant.name]];
  if (variant.colour) rows.push([t("productPage.colour"), colourName(t, variant.colour)]);
  if (!isOneSize(variant.size)) rows.push([t("productPage.size"), formatSize(variant.size)]);
  return rows;
}

/**
 * The product page's "Avvisami quando torna disponibile". A signed-in customer with a verified address
 * has confirmed by the click: the alert is active at once. A guest's alert is pending until the link of
 * the confirmation mail is followed (48 hours, one use). One open alert per variant and address; asking
 * again answers the same and mails at most once per `confirmMailGapMs` and `stockAlertMailsPerAddressRule`.
 * Refused: bad input, a variant that is not out of stock (or a pre-order), too many requests from one
 * client address (`stockAlertRequestRule`).
 */
export async function requestStockAlert(db: Db, raw: unknown, caller: StockAlertCaller): Promise<StockAlertRequestResult> {
  const parsed = StockAlertRequestInput.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
  const user = caller.user ?? null;
  // A signed-in customer is told at their account's address; the field is not even shown to them.
  const email = user ? user.email.trim().toLowerCase() : parsed.data.email;
  if (!email) return { ok: false, error: "stockAlerts.errors.emailRequired" };
  const variant = await loadVariant(db, parsed.data.variantId, caller.locale);
  if (!variant || !variant.isPublished || variant.isOnRequest) return { ok: false, error: "stockAlerts.errors.variantMissing" };
  if (!takesStockAlert(variant)) return { ok: false, error: "stockAlerts.errors.available" };
  const now = caller.now ?? new Date();
  if (caller.clientIp) {
    const verdict = await countAttempt(db, `stock-alert:ip:${caller.clientIp}`, stockAlertRequestRule, now);
    if (!verdict.allowed) return { ok: false, error: "stockAlerts.errors.tooMany", throttled: true };
  }
  const confirmed = Boolean(user?.emailVerified);
  await db.transaction(async (tx) => {
    const [open] = await tx
      .select()
      .from(stockAlerts)
      .where(and(eq(stockAlerts.variantId, variant.id), eq(stockAlerts.email, email), inArray(stockAlerts.status, ["pending", "active"])))
      .for("update");
    const plan = planStockAlertRequest(open ? { status: open.status as "pending" | "active", lastMailAt: open.lastMailAt } : null, {
      confirmed,
      now,
    });
    if (plan === "quiet") return;
    if (plan === "create-active" || plan === "activate") {
      const active = {
        status: "active" as const,
        locale: caller.locale,
        userId: user?.id ?? null,
        confirmedAt: now,
        confirmTokenHash: null,
        confirmTokenExpiresAt: null,
      };
      if (open) await tx.update(stockAlerts).set(active).where(eq(stockAlerts.id, open.id));
      else
        await tx
          .insert(stockAlerts)
          .values({ variantId: variant.id, email, siteUrl: caller.publicUrl, unsubscribeToken: newToken(), ...active })
          .onConflictDoNothing();
      return;
    }
    const allowed = await countAttempt(tx, `stock-alert:email:${hashEmail(email)}`, stockAlertMailsPerAddressRule, now);
    if (!allowed.allowed) return;
    const token = newToken();
    const pending = {
      status: "pending" as const,
      locale: caller.locale,
      siteUrl: caller.publicUrl,
      confirmTokenHash: hashToken(token),
      confirmTokenExpiresAt: new Date(now.getTime() + confirmLinkLifetimeMs),
      lastMailAt: now,
    };
    const [row] =
      plan === "create-pending"
        ? await tx
            .insert(stockAlerts)
            .values({ variantId: variant.id, email, unsubscribeToken: newToken(), ...pending })
            .onConflictDoNothing()
            .returning()
        : await tx.update(stockAlerts).set(pending).where(eq(stockAlerts.id, open!.id)).returning();
    // A concurrent first request for the same variant and address won the insert: its mail is on the way.
    if (!row) return;
    await queueConfirmationMail(tx, { alert: row, token, variant, now });
  });
  return { ok: true, confirmed };
}

async function queueConfirmationMail(tx: Db, args: { alert: typeof stockAlerts.$inferSelect; token: string; variant: AlertVariant; now: Date }) {
  const { alert, variant } = args;
  const locale = alert.locale === "en" ? "en" : "it";
  const t = getTranslator(locale);
  const { shop } = await getSettings(tx, ["shop"]);
  await queueEmail(tx, {
    to: alert.email,
    kind: "stock-alert-confirmation",
    locale,
    dedupeKey: `stock-alert-confirmation:${alert.id}:${args.now.getTime()}`,
    ...renderEmail({
      locale,
      shop,
      siteUrl: alert.siteUrl,
      subject: t("stockAlerts.mail.confirmSubject", { product: variant.name }),
      preheader: t("stockAlerts.mail.confirmPreheader"),
      heading: t("stockAlerts.mail.confirmHeading"),
      paragraphs: [t("stockAlerts.mail.confirmLead")],
      details: variantDetails(variant, locale),
      action: { label: t("stockAlerts.mail.confirm"), url: linkTo(alert.siteUrl, locale, confirmPath, args.token) },
      footnote: t("stockAlerts.mail.notYou"),
      unsubscribe: { label: t("stockAlerts.mail.unsubscribe"), url: linkTo(alert.siteUrl, locale, unsubscribePath, alert.unsubscribeToken) },
    }),
  });
}

export type StockAlertLinkResult = { ok: true } | { ok: false; error: "stockAlerts.errors.linkInvalid" };

/** The confirmation link's button: a pending alert with this unexpired token becomes active; the token then stops working. */
export async function confirmStockAlert(db: Db, rawToken: unknown, now = new Date()): Promise<StockAlertLinkResult> {
  const token = StockAlertToken.safeParse(rawToken);
  if (!token.success) return { ok: false, error: "stockAlerts.errors.linkInvalid" };
  const rows = await db
    .update(stockAlerts)
    .set({ status: "active", confirmedAt: now, confirmTokenHash: null, confirmTokenExpiresAt: null })
    .where(
      and(eq(stockAlerts.confirmTokenHash, hashToken(token.data)), eq(stockAlerts.status, "pending"), gt(stockAlerts.confirmTokenExpiresAt, now)),
    )
    .returning({ id: stockAlerts.id });
  return rows.length ? { ok: true } : { ok: false, error: "stockAlerts.errors.linkInvalid" };
}

/**
 * Every alert mail's unsubscribe link (the page's button, or a mail client's one-click POST): no login.
 * A waiting alert ends; an alert already ended (unsubscribed, or its mail sent) stays as it is: still a success.
 */
export async function unsubscribeFromStockAlert(db: Db, rawToken: unknown, now = new Date()): Promise<StockAlertLinkResult> {
  const token = StockAlertToken.safeParse(rawToken);
  if (!token.success) return { ok: false, error: "stockAlerts.errors.linkInvalid" };
  const [row] = await db.select({ id: stockAlerts.id }).from(stockAlerts).where(eq(stockAlerts.unsubscribeToken, token.data));
  if (!row) return { ok: false, error: "stockAlerts.errors.linkInvalid" };
  await db
    .update(stockAlerts)
    .set({ status: "unsubscribed", unsubscribedAt: now, confirmTokenHash: null, confirmTokenExpiresAt: null })
    .where(and(eq(stockAlerts.id, row.id), inArray(stockAlerts.status, ["pending", "active"])));
  return { ok: true };
}

/**
 * Called by the stock ledger, in its transaction, for the variants it has just brought from 0 to more:
 * each active alert of theirs gets one mail, in its language, with a link to the product on that colour
 * and size, and ends. Pending alerts (not confirmed yet) wait for the next time.
 */
export async function sendBackInStockAlerts(tx: Db, variantIds: readonly number[], now?: Date): Promise<number> {
  if (variantIds.length === 0) return 0;
  const ended = await tx
    .update(stockAlerts)
    .set({ status: "notified", notifiedAt: now ?? new Date() })
    .where(and(inArray(stockAlerts.variantId, [...variantIds]), eq(stockAlerts.status, "active")))
    .returning();
  if (ended.length === 0) return 0;
  const { shop } = await getSettings(tx, ["shop"]);
  const variants = new Map<string, AlertVariant>();
  for (const alert of ended.sort((a, b) => a.id - b.id)) {
    const locale: Locale = alert.locale === "en" ? "en" : "it";
    const key = `${alert.variantId}:${locale}`;
    if (!variants.has(key)) variants.set(key, (await loadVariant(tx, alert.variantId, locale))!);
    const variant = variants.get(key)!;
    const t = getTranslator(locale);
    const productUrl = `${alert.siteUrl}${localizedHref(`/product/${variant.productId}`, locale)}${selectionSearchOf(variant)}`;
    await queueEmail(tx, {
      to: alert.email,
      kind: "stock-alert",
      locale,
      dedupeKey: `stock-alert:${alert.id}`,
      ...renderEmail({
        locale,
        shop,
        siteUrl: alert.siteUrl,
        subject: t("stockAlerts.mail.backSubject", { product: variant.name }),
        preheader: t("stockAlerts.mail.backPreheader"),
        heading: t("stockAlerts.mail.backHeading"),
        paragraphs: [t("stockAlerts.mail.backLead")],
        details: variantDetails(variant, locale),
        action: { label: t("stockAlerts.mail.toProduct"), url: productUrl },
        footnote: t("stockAlerts.mail.backFootnote"),
        unsubscribe: { label: t("stockAlerts.mail.unsubscribe"), url: linkTo(alert.siteUrl, locale, unsubscribePath, alert.unsubscribeToken) },
      }),
    });
  }
  return ended.length;
}

// ---------------------------------------------------------------- back office

export type StockAlertCounts = Record<StockAlertStatus, number>;

/** Per variant of a product: how many alerts wait for a confirmation, for the stock, were sent, were cancelled. */
export async function countStockAlertsByVariant(db: Db, productId: number): Promise<Map<number, StockAlertCounts>> {
  const rows = await db
    .select({ variantId: stockAlerts.variantId, status: stockAlerts.status, n: count() })
    .from(stockAlerts)
    .innerJoin(productVariants, eq(productVariants.id, stockAlerts.variantId))
    .where(eq(productVariants.productId, productId))
    .groupBy(stockAlerts.variantId, stockAlerts.status);
  const counts = new Map<number, StockAlertCounts>();
  for (const row of rows) {
    const perVariant = counts.get(row.variantId) ?? { pending: 0, active: 0, notified: 0, unsubscribed: 0 };
    perVariant[row.status] = row.n;
    counts.set(row.variantId, perVariant);
  }
  return counts;
}
