import { eq } from "drizzle-orm";
import sharp from "sharp";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { auditLog, guaranteeClaimPhotos, outboxEmails } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { afterSalesLinks, deliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { createUser } from "#tests/fixtures/cart.fixtures.ts";
import {
  changeGuaranteeClaimStatus,
  getGuaranteeClaim,
  getOrderClaims,
  listGuaranteeClaims,
  openGuaranteeClaim,
  readClaimPhoto,
} from "./claims.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const links = afterSalesLinks;
const fault = "La ruota anteriore si blocca dopo due settimane di uso normale.";

/** A phone photo: 2000 x 1500 JPEG with its camera and GPS data. */
async function phonePhoto() {
  return sharp({ create: { width: 2000, height: 1500, channels: 3, background: { r: 200, g: 120, b: 80 } } })
    .jpeg()
    .withExif({ IFD0: { Make: "PhoneMaker", Model: "Phone 9" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 51/1 0/1" } })
    .toBuffer();
}

async function mailsTo(db: Db, address: string) {
  return db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, address)).orderBy(outboxEmails.id);
}

// The first test of the file also pays for the database template and sharp's start: slow on a busy machine.
test(
  "a buyer reports a faulty item with a photo from her account: received, the photo kept without its EXIF, a mail sent",
  { timeout: 60_000 },
  async () => {
    const db = await openDb();
    const userId = await createUser(db);
    const order = await deliveredOrder(db, { userId, email: "anna.esposito@example.it" });
    const proof = { userId, hasOrderLink: false };
    const photo = await phonePhoto();
    expect((await sharp(photo).metadata()).exif).toBeDefined();

    const opened = await openGuaranteeClaim(db, {
      orderId: order.orderId,
      proof,
      input: { orderLineId: order.blanket.id, description: fault },
      photos: [photo],
      locale: "it",
      links,
    });
    expect(opened).toMatchObject({ ok: true });
    const claimId = (opened as { claimId: number }).claimId;

    const page = await getOrderClaims(db, { orderId: order.orderId, proof });
    expect(page).toMatchObject({ canClaim: true, order: { number: order.orderNumber } });
    expect(page!.claims).toEqual([expect.objectContaining({ id: claimId, item: "Copertina", status: "received", description: fault })]);
    expect(page!.lines.find((line) => line.id === order.blanket.id)!.hasOpenClaim).toBe(true);

    const [stored] = await db.select().from(guaranteeClaimPhotos).where(eq(guaranteeClaimPhotos.claimId, claimId));
    expect(stored).toMatchObject({ width: 1600, height: 1200 });
    const kept = await sharp(stored!.body).metadata();
    expect(kept.format).toBe("webp");
    expect(kept.exif).toBeUndefined();
    expect(await readClaimPhoto(db, { orderId: order.orderId, photoId: stored!.id, proof })).toEqual(stored!.body);
    expect(
      await readClaimPhoto(db, { orderId: order.orderId, photoId: stored!.id, proof: { userId: "someone-else", hasOrderLink: false } }),
    ).toBeNull();

    const [mail] = await mailsTo(db, "anna.esposito@example.it").then((rows) => rows.filter((row) => row.kind === "guarantee-claim-received"));
    expect(mail!.subject).toBe(`Abbiamo ricevuto la tua segnalazione n. ${claimId}`);
    expect(mail!.textBody).toContain(`/ordine/${order.orderId}/garanzia?t=`);

    // The same line again while the claim is open.
    expect(
      await openGuaranteeClaim(db, {
        orderId: order.orderId,
        proof,
        input: { orderLineId: order.blanket.id, description: fault },
        photos: [],
        locale: "it",
        links,
      }),
    ).toEqual({ ok: false, error: "guaranteeClaims.errors.alreadyOpen", field: "orderLineId" });
  },
);

test("refused: after 26 months from delivery, an order not delivered, someone else's order, bad input and files that are no photos", async () => {
  const db = await openDb();
  const userId = await createUser(db);
  const deliveredAt = new Date("2024-03-10T10:00:00Z");
  const old = await deliveredOrder(db, { userId, placedAt: new Date("2024-03-08T10:00:00Z"), deliveredAt });
  const proof = { userId, hasOrderLink: false };
  const claim = (orderId: string, orderLineId: string, extra: { photos?: Buffer[]; description?: string; now?: Date } = {}) =>
    openGuaranteeClaim(db, {
      orderId,
      proof,
      input: { orderLineId, description: extra.description ?? fault },
      photos: extra.photos ?? [],
      locale: "it",
      links,
      now: extra.now ?? new Date("2026-05-11T08:00:00Z"),
    });

  expect(await claim(old.orderId, old.bib.id, { now: new Date("2026-05-10T09:00:00Z") })).toMatchObject({ ok: true });
  expect(await claim(old.orderId, old.towel.id)).toEqual({
    ok: false,
    error: "guaranteeClaims.errors.expired",
    params: { deliveredOn: "10 marzo 2024", until: "10 maggio 2026" },
  });

  const shipped = await deliveredOrder(db, { userId, stage: "shipped" });
  expect(await claim(shipped.orderId, shipped.bib.id, { now: new Date() })).toEqual({ ok: false, error: "guaranteeClaims.errors.notDelivered" });

  const recent = await deliveredOrder(db, { userId });
  const now = new Date();
  expect(await claim(recent.orderId, recent.bib.id, { description: "rotto", now })).toEqual({
    ok: false,
    error: "guaranteeClaims.errors.descriptionShort",
    field: "description",
  });
  expect(await claim(recent.orderId, old.bib.id, { now })).toEqual({ ok: false, error: "guaranteeClaims.errors.lineRequired", field: "orderLineId" });
  expect(await claim(recent.orderId, recent.bib.id, { photos: [Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>")], now })).toMatchObject({
    ok: false,
    field: "photos",
  });
  expect(await claim(recent.orderId, recent.bib.id, { photos: [Buffer.from("%PDF-1.4 not a photo")], now })).toEqual({
    ok: false,
    error: "guaranteeClaims.errors.photoUnreadable",
    field: "photos",
  });
  const small = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
    .png()
    .toBuffer();
  expect(await claim(recent.orderId, recent.bib.id, { photos: [small, small, small, small, small], now })).toEqual({
    ok: false,
    error: "guaranteeClaims.errors.tooManyPhotos",
    field: "photos",
  });

  const stranger = await createUser(db);
  expect(
    await openGuaranteeClaim(db, {
      orderId: recent.orderId,
      proof: { userId: stranger, hasOrderLink: false },
      input: { orderLineId: recent.bib.id, description: fault },
      photos: [],
      locale: "it",
      links,
    }),
  ).toEqual({ ok: false, error: "not-found" });
  expect(await getOrderClaims(db, { orderId: recent.orderId, proof: { userId: stranger, hasOrderLink: false } })).toBeNull();
});

test("the staff examine a claim, decide a replacement and close it; each step is mailed with the note, a step back is refused", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const order = await deliveredOrder(db, { email: "marta.russo@example.it" });
  const opened = await openGuaranteeClaim(db, {
    orderId: order.orderId,
    proof: { userId: null, hasOrderLink: true },
    input: { orderLineId: order.towel.id, description: fault },
    photos: [],
    locale: "en",
    links,
  });
  const claimId = (opened as { claimId: number }).claimId;
  const change = (status: string, note = "") => changeGuaranteeClaimStatus(db, { claimId, input: { status, note }, actorUserId: admin, links });

  expect(await change("replacement")).toEqual({ ok: false, error: "guaranteeClaims.errors.statusNotAllowed" });
  expect(await change("in_review")).toEqual({ ok: true });
  expect(await change("replacement", "Ti spediamo un asciugamano nuovo entro venerdì.")).toEqual({ ok: true });
  expect(await change("in_review")).toEqual({ ok: false, error: "guaranteeClaims.errors.statusNotAllowed" });
  expect(await change("sold")).toEqual({ ok: false, error: "guaranteeClaims.errors.statusNotAllowed" });
  expect(await change("closed")).toEqual({ ok: true });

  const mails = (await mailsTo(db, "marta.russo@example.it")).filter((mail) => mail.kind.startsWith("guarantee-claim"));
  expect(mails.map((mail) => mail.subject)).toEqual([
    `We have received your report no. ${claimId}`,
    `Report no. ${claimId}: Under review`,
    `Report no. ${claimId}: Replacement decided`,
    `Report no. ${claimId}: Closed`,
  ]);
  expect(mails[2]!.textBody).toContain("Ti spediamo un asciugamano nuovo entro venerdì.");

  const detail = await getGuaranteeClaim(db, claimId);
  expect(detail!.claim).toMatchObject({ status: "closed", staffNote: "Ti spediamo un asciugamano nuovo entro venerdì." });
  expect(detail!.history.map((row) => row.toStatus)).toEqual(["received", "in_review", "replacement", "closed"]);
  expect(detail!.nextStatuses).toEqual([]);
  const audit = await db.select().from(auditLog).where(eq(auditLog.entity, "guarantee-claim"));
  expect(audit).toHaveLength(3);

  expect(await listGuaranteeClaims(db, { status: "closed" })).toMatchObject({
    total: 1,
    openCount: 0,
    claims: [{ id: claimId, orderNumber: order.orderNumber }],
  });
  expect(await listGuaranteeClaims(db, { status: "received" })).toMatchObject({ total: 0 });
});
