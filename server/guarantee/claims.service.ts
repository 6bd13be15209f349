/**
 * Claims under the legal guarantee (docs/decisions/0103-guarantee-claims.md): the buyer of a delivered order
 * reports a faulty item with photos within 26 months of delivery; the staff examine it, decide the remedy
 * and close it, and every step is mailed to her. The only writer of guarantee_claims, guarantee_claim_photos
 * and guarantee_claim_events.
 */
import { and, asc, count, desc, eq, inArray, ne } from "drizzle-orm";
import { formatDate } from "#common/format.ts";
import { isLocale, localizedHref, type Locale } from "#common/locale.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import { encodeUploadedPhoto, type ImageRejection } from "#server/catalog/images.ts";
import type { Db } from "#server/db/client.ts";
import { pageOf } from "#server/db/paging.ts";
import { guaranteeClaimEvents, guaranteeClaimPhotos, guaranteeClaims, orderLines, orders, orderStatusHistory } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { orderAccessToken } from "#server/orders/order-access.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { ChangeClaimStatusInput, OpenClaimInput } from "./claims.inputs";
import { maxClaimPhotos, type ClaimStatus } from "#common/guarantee-claims.ts";
import { claimPhotoMaxWidth, guaranteeEndsAt, isWithinGuarantee, nextClaimStatuses } from "./guarantee";

/** Who asks for an order's claims: her account, or the order's own link (as on the order page). */
export type ClaimantProof = { userId: string | null; hasOrderLink: boolean };
export type ClaimLinks = { publicUrl: string; secret: string };

const photoErrors: Record<ImageRejection, string> = {
  "image-too-large": "guaranteeClaims.errors.photoTooLarge",
  "image-unreadable": "guaranteeClaims.errors.photoUnreadable",
  "image-not-raster": "guaranteeClaims.errors.photoNotImage",
  "image-too-many-pixels": "guaranteeClaims.errors.photoUnreadable",
};

async function findOrderOf(db: Db, orderId: string, proof: ClaimantProof) {
  const [order] = await db
    .select({
      id: orders.id,
      number: orders.number,
      status: orders.status,
      userId: orders.userId,
      email: orders.email,
      firstName: orders.firstName,
      locale: orders.locale,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return null;
  return proof.hasOrderLink || (proof.userId !== null && order.userId === proof.userId) ? order : null;
}

/** When the order was delivered or collected (its first move to completed), or null when it has not been. */
async function deliveredAtOf(db: Db, orderId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: orderStatusHistory.createdAt })
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orderId), eq(orderStatusHistory.toStatus, "completed")))
    .orderBy(asc(orderStatusHistory.createdAt))
    .limit(1);
  return row?.at ?? null;
}

export type ClaimView = {
  id: number;
  orderLineId: string;
  item: string;
  status: ClaimStatus;
  description: string;
  staffNote: string | null;
  createdAt: Date;
  photoIds: number[];
};

async function claimsOf(db: Db, where: ReturnType<typeof eq>): Promise<ClaimView[]> {
  const rows = await db
    .select({
      id: guaranteeClaims.id,
      orderLineId: guaranteeClaims.orderLineId,
      item: orderLines.name,
      status: guaranteeClaims.status,
      description: guaranteeClaims.description,
      staffNote: guaranteeClaims.staffNote,
      createdAt: guaranteeClaims.createdAt,
    })
    .from(guaranteeClaims)
    .innerJoin(orderLines, eq(orderLines.id, guaranteeClaims.orderLineId))
    .where(where)
    .orderBy(desc(guaranteeClaims.createdAt), desc(guaranteeClaims.id));
  const photos = rows.length
    ? await db
        .select({ id: guaranteeClaimPhotos.id, claimId: guaranteeClaimPhotos.claimId })
        .from(guaranteeClaimPhotos)
        .where(
          inArray(
            guaranteeClaimPhotos.claimId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(guaranteeClaimPhotos.id))
    : [];
  return rows.map((row) => ({ ...row, photoIds: photos.filter((photo) => photo.claimId === row.id).map((photo) => photo.id) }));
}

/** The order's claim page: its lines, when the guarantee ends, the claims made; null when it is not hers. */
export async function getOrderClaims(db: Db, args: { orderId: string; proof: ClaimantProof; now?: Date }) {
  const order = await findOrderOf(db, args.orderId, args.proof);
  if (!order) return null;
  const now = args.now ?? new Date();
  const deliveredAt = order.status === "completed" ? await deliveredAtOf(db, order.id) : null;
  const lines = await db
    .select({ id: orderLines.id, name: orderLines.name, colour: orderLines.colour, size: orderLines.size, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.sku), asc(orderLines.id));
  const claims = await claimsOf(db, eq(guaranteeClaims.orderId, order.id));
  const openLineIds = new Set(claims.filter((claim) => claim.status !== "closed").map((claim) => claim.orderLineId));
  return {
    order: { id: order.id, number: order.number },
    deliveredAt,
    guaranteeEndsAt: deliveredAt ? guaranteeEndsAt(deliveredAt) : null,
    canClaim: deliveredAt !== null && isWithinGuarantee(deliveredAt, now),
    lines: lines.map((line) => ({ ...line, hasOpenClaim: openLineIds.has(line.id) })),
    claims,
  };
}

export type OpenClaimResult =
  | { ok: true; claimId: number }
  | { ok: false; error: "not-found" }
  | { ok: false; error: string; params?: Record<string, string>; field?: "orderLineId" | "description" | "photos" };

/**
 * Opens a claim for one line of a delivered order of hers: refused outside 26 months from delivery, for a
 * line with a claim still open, with more than 4 photos or a file that is no photo. Photos are re-encoded
 * (no EXIF) before anything is written; the claim, its photos, its first history row and the mail are one transaction.
 */
export async function openGuaranteeClaim(
  db: Db,
  args: { orderId: string; proof: ClaimantProof; input: unknown; photos: Buffer[]; locale: Locale; links: ClaimLinks; now?: Date },
): Promise<OpenClaimResult> {
  const order = await findOrderOf(db, args.orderId, args.proof);
  if (!order) return { ok: false, error: "not-found" };
  const parsed = OpenClaimInput.safeParse(args.input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: issue.message, field: issue.path[0] === "orderLineId" ? "orderLineId" : "description" };
  }
  const now = args.now ?? new Date();
  const deliveredAt = order.status === "completed" ? await deliveredAtOf(db, order.id) : null;
  if (!deliveredAt) return { ok: false, error: "guaranteeClaims.errors.notDelivered" };
  if (!isWithinGuarantee(deliveredAt, now)) {
    return {
      ok: false,
      error: "guaranteeClaims.errors.expired",
      params: { deliveredOn: formatDate(deliveredAt, args.locale), until: formatDate(guaranteeEndsAt(deliveredAt), args.locale) },
    };
  }
  const [line] = await db
    .select({ id: orderLines.id, name: orderLines.name })
    .from(orderLines)
    .where(and(eq(orderLines.id, parsed.data.orderLineId), eq(orderLines.orderId, order.id)));
  if (!line) return { ok: false, error: "guaranteeClaims.errors.lineRequired", field: "orderLineId" };
  if (args.photos.length > maxClaimPhotos) return { ok: false, error: "guaranteeClaims.errors.tooManyPhotos", field: "photos" };
  const encoded: { webp: Buffer; width: number; height: number }[] = [];
  for (const photo of args.photos) {
    const result = await encodeUploadedPhoto(photo, claimPhotoMaxWidth);
    if (!result.ok) return { ok: false, error: photoErrors[result.error], field: "photos" };
    encoded.push(result);
  }
  // Her mails follow the language of the page she wrote the claim on.
  const locale = args.locale;
  const claimId = await db.transaction(async (tx) => {
    const [claim] = await tx
      .insert(guaranteeClaims)
      .values({
        orderId: order.id,
        orderLineId: line.id,
        userId: order.userId,
        email: order.email.toLowerCase(),
        locale,
        description: parsed.data.description,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: guaranteeClaims.id });
    if (!claim) return null;
    if (encoded.length) {
      await tx
        .insert(guaranteeClaimPhotos)
        .values(encoded.map((photo) => ({ claimId: claim.id, body: photo.webp, width: photo.width, height: photo.height })));
    }
    await tx.insert(guaranteeClaimEvents).values({ claimId: claim.id, fromStatus: null, toStatus: "received", actorUserId: null, createdAt: now });
    const t = getTranslator(locale);
    await queueClaimMail(tx, {
      claimId: claim.id,
      order: { ...order, locale },
      item: line.name,
      subject: t("guaranteeClaims.mail.receivedSubject", { id: claim.id }),
      heading: t("guaranteeClaims.mail.receivedHeading", { id: claim.id }),
      lead: t("guaranteeClaims.mail.receivedLead", { name: order.firstName }),
      status: "received",
      note: null,
      links: args.links,
      kind: "guarantee-claim-received",
    });
    return claim.id;
  });
  if (claimId === null) return { ok: false, error: "guaranteeClaims.errors.alreadyOpen", field: "orderLineId" };
  return { ok: true, claimId };
}

async function queueClaimMail(
  tx: Db,
  args: {
    claimId: number;
    order: { id: string; number: number; email: string; locale: Locale };
    item: string;
    subject: string;
    heading: string;
    lead: string;
    status: ClaimStatus;
    note: string | null;
    links: ClaimLinks;
    kind: string;
  },
) {
  const { locale } = args.order;
  const t = getTranslator(locale);
  const { shop } = await getSettings(tx, ["shop"]);
  const token = orderAccessToken(args.links.secret, args.order.id);
  const url = `${args.links.publicUrl}${localizedHref(`/ordine/${encodeURIComponent(args.order.id)}/garanzia?t=${encodeURIComponent(token)}`, locale)}`;
  const details: [string, string][] = [
    [t("guaranteeClaims.mail.order"), String(args.order.number)],
    [t("guaranteeClaims.mail.item"), args.item],
    [t("guaranteeClaims.mail.status"), t(`guaranteeClaims.status.${args.status}`)],
  ];
  if (args.note) details.push([t("guaranteeClaims.mail.note"), args.note]);
  await queueEmail(tx, {
    to: args.order.email,
    kind: args.kind,
    locale,
    dedupeKey: `${args.kind}:${args.claimId}:${args.status}`,
    ...renderEmail({
      locale,
      shop,
      siteUrl: args.links.publicUrl,
      subject: args.subject,
      heading: args.heading,
      paragraphs: [args.lead],
      details,
      action: { label: t("guaranteeClaims.mail.view"), url },
    }),
  });
}

/** A claim's photo, for its buyer (account or order link) or the staff; null for anyone else. */
export async function readClaimPhoto(db: Db, args: { orderId: string; photoId: number; proof: ClaimantProof | "staff" }): Promise<Buffer | null> {
  if (args.proof !== "staff" && !(await findOrderOf(db, args.orderId, args.proof))) return null;
  const [photo] = await db
    .select({ body: guaranteeClaimPhotos.body })
    .from(guaranteeClaimPhotos)
    .innerJoin(guaranteeClaims, eq(guaranteeClaims.id, guaranteeClaimPhotos.claimId))
    .where(and(eq(guaranteeClaimPhotos.id, args.photoId), eq(guaranteeClaims.orderId, args.orderId)));
  return photo?.body ?? null;
}

// ---------------------------------------------------------------- back office

export async function listGuaranteeClaims(db: Db, options: { status: ClaimStatus | null; page?: number; pageSize?: number }) {
  const pageSize = options.pageSize ?? 50;
  const where = options.status ? eq(guaranteeClaims.status, options.status) : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(guaranteeClaims).where(where);
  const { page, pageCount, offset } = pageOf(options.page, total, pageSize);
  const claims = await db
    .select({
      id: guaranteeClaims.id,
      createdAt: guaranteeClaims.createdAt,
      status: guaranteeClaims.status,
      orderId: orders.id,
      orderNumber: orders.number,
      customer: orders.email,
      item: orderLines.name,
    })
    .from(guaranteeClaims)
    .innerJoin(orders, eq(orders.id, guaranteeClaims.orderId))
    .innerJoin(orderLines, eq(orderLines.id, guaranteeClaims.orderLineId))
    .where(where)
    .orderBy(desc(guaranteeClaims.createdAt), desc(guaranteeClaims.id))
    .limit(pageSize)
    .offset(offset);
  const open = await db.select({ n: count() }).from(guaranteeClaims).where(ne(guaranteeClaims.status, "closed"));
  return { claims, total, page, pageCount, openCount: open[0]?.n ?? 0 };
}

/** One claim for the staff: the claim, its order and customer, its photos and its history. */
export async function getGuaranteeClaim(db: Db, claimId: number) {
  const [claim] = await claimsOf(db, eq(guaranteeClaims.id, claimId));
  if (!claim) return null;
  const [order] = await db
    .select({
      id: orders.id,
      number: orders.number,
      email: orders.email,
      firstName: orders.firstName,
      lastName: orders.lastName,
      phone: orders.phone,
    })
    .from(orders)
    .innerJoin(guaranteeClaims, eq(guaranteeClaims.orderId, orders.id))
    .where(eq(guaranteeClaims.id, claimId));
  const deliveredAt = await deliveredAtOf(db, order!.id);
  const history = await db
    .select({
      fromStatus: guaranteeClaimEvents.fromStatus,
      toStatus: guaranteeClaimEvents.toStatus,
      note: guaranteeClaimEvents.note,
      createdAt: guaranteeClaimEvents.createdAt,
    })
    .from(guaranteeClaimEvents)
    .where(eq(guaranteeClaimEvents.claimId, claimId))
    .orderBy(asc(guaranteeClaimEvents.id));
  return {
    claim,
    order: order!,
    deliveredAt,
    guaranteeEndsAt: deliveredAt ? guaranteeEndsAt(deliveredAt) : null,
    history,
    nextStatuses: nextClaimStatuses(claim.status),
  };
}

export type ChangeClaimResult = { ok: true } | { ok: false; error: "not-found" } | { ok: false; error: string };

/** The staff move a claim on (only to a status that may follow) and the customer is mailed the status and the note. */
export async function changeGuaranteeClaimStatus(
  db: Db,
  args: { claimId: number; input: unknown; actorUserId: string; links: ClaimLinks; now?: Date },
): Promise<ChangeClaimResult> {
  const parsed = ChangeClaimStatusInput.safeParse(args.input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
  const now = args.now ?? new Date();
  return db.transaction(async (tx): Promise<ChangeClaimResult> => {
    const [claim] = await tx.select().from(guaranteeClaims).where(eq(guaranteeClaims.id, args.claimId)).for("update");
    if (!claim) return { ok: false, error: "not-found" };
    if (!nextClaimStatuses(claim.status).includes(parsed.data.status)) return { ok: false, error: "guaranteeClaims.errors.statusNotAllowed" };
    const { status, note } = parsed.data;
    await tx
      .update(guaranteeClaims)
      .set({ status, staffNote: note ?? claim.staffNote, updatedAt: now })
      .where(eq(guaranteeClaims.id, claim.id));
    await tx
      .insert(guaranteeClaimEvents)
      .values({ claimId: claim.id, fromStatus: claim.status, toStatus: status, note, actorUserId: args.actorUserId, createdAt: now });
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "guarantee-claim.status",
      entity: "guarantee-claim",
      entityId: claim.id,
      details: { from: claim.status, to: status },
    });
    const [order] = await tx
      .select({ id: orders.id, number: orders.number, email: orders.email, firstName: orders.firstName, item: orderLines.name })
      .from(orders)
      .innerJoin(orderLines, eq(orderLines.id, claim.orderLineId))
      .where(eq(orders.id, claim.orderId));
    const locale: Locale = isLocale(claim.locale) ? claim.locale : "it";
    const t = getTranslator(locale);
    const statusName = t(`guaranteeClaims.status.${status}`);
    await queueClaimMail(tx, {
      claimId: claim.id,
      order: { id: order!.id, number: order!.number, email: claim.email, locale },
      item: order!.item,
      subject: t("guaranteeClaims.mail.statusSubject", { id: claim.id, status: statusName }),
      heading: t("guaranteeClaims.mail.statusHeading", { id: claim.id }),
      lead: t("guaranteeClaims.mail.statusLead", { name: order!.firstName, status: statusName }),
      status,
      note,
      links: args.links,
      kind: "guarantee-claim-status",
    });
    return { ok: true };
  });
}
