import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { saveSettings } from "#server/admin/settings-admin.service.ts";
import type { Db } from "#server/db/client.ts";
import { carts, outboxEmails, users } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { afterSalesLinks, deliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, placeTestOrder } from "#tests/fixtures/checkout.fixtures.ts";
import { sendDueCartReminders } from "./cart-reminder.service";
import { getMailChoice, objectByMailLink, setMailChoice } from "./mail-choice.service";
import { sendDueReviewInvitations } from "./review-invitation.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const links = afterSalesLinks;
const hoursLater = (hours: number, from = new Date()) => new Date(from.getTime() + hours * 3_600_000);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

async function mailsOf(db: Db, kind: string) {
  return db.select().from(outboxEmails).where(eq(outboxEmails.kind, kind)).orderBy(outboxEmails.id);
}

async function emailOf(db: Db, userId: string) {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user!.email;
}

/** A customer who bought before, with a stroller and two bibs left in her cart. */
async function customerWithCart(db: Db, options: { hasBought?: boolean } = {}) {
  const userId = await createUser(db);
  if (options.hasBought ?? true) await deliveredOrder(db, { userId, placedAt: daysAgo(40), deliveredAt: daysAgo(38) });
  const stroller = await createProduct(db, { nameIt: "Passeggino Vesuvio", nameEn: "Vesuvio stroller", priceCents: 34_900 });
  const bib = await createProduct(db, { nameIt: "Bavaglino a righe", nameEn: "Striped bib", priceCents: 850 });
  const cartId = await cartWith(db, [
    { variantId: stroller.variantId, quantity: 1 },
    { variantId: bib.variantId, quantity: 2 },
  ]);
  await db.update(carts).set({ userId }).where(eq(carts.id, cartId));
  return { userId, cartId, email: await emailOf(db, userId), stroller, bib };
}

// The first test of the file also pays for the database template and sharp's start: slow on a busy machine.
test(
  "a customer who bought before gets one reminder of her idle cart, with its lines, a link back and an opt-out link",
  { timeout: 60_000 },
  async () => {
    const db = await openDb();
    const { email } = await customerWithCart(db);

    expect(await sendDueCartReminders(db, { links, now: hoursLater(23) })).toBe(0);
    expect(await sendDueCartReminders(db, { links, now: hoursLater(25) })).toBe(1);
    const [mail] = await mailsOf(db, "cart-reminder");
    expect(mail).toMatchObject({ toAddress: email, subject: "Hai dimenticato qualcosa nel carrello?", locale: "it" });
    expect(mail!.textBody).toContain("Passeggino Vesuvio (1 pezzo)");
    expect(mail!.textBody).toContain("Bavaglino a righe (2 pezzi)");
    expect(mail!.textBody).toContain("366,00");
    expect(mail!.textBody).toContain(`${links.publicUrl}/cart`);
    expect(mail!.textBody).toContain("Non voglio più promemoria e inviti");
    expect(mail!.headers?.["List-Unsubscribe"]).toMatch(new RegExp(`^<${links.publicUrl}/promemoria/cancellazione\\?token=`));
    expect(mail!.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    // Once per cart: later runs send nothing more.
    expect(await sendDueCartReminders(db, { links, now: hoursLater(30) })).toBe(0);
    expect(await sendDueCartReminders(db, { links, now: hoursLater(80) })).toBe(0);
    expect(await mailsOf(db, "cart-reminder")).toHaveLength(1);
  },
);

test("no reminder to someone who never bought, who objected, whose cart became an order, or when the staff switch it off", async () => {
  const db = await openDb();
  await customerWithCart(db, { hasBought: false });
  const objecting = await customerWithCart(db);
  await setMailChoice(db, { email: objecting.email, objects: true, source: "account" });
  const ordering = await customerWithCart(db);
  const placed = await placeTestOrder(db, { cartId: ordering.cartId, userId: ordering.userId });
  expect(placed.ok).toBe(true);
  expect(await sendDueCartReminders(db, { links, now: hoursLater(25) })).toBe(0);

  const admin = await createAdminUser(db);
  const other = await customerWithCart(db);
  const off = { cartReminderDelayHours: "24", reviewInvitationEnabled: "on", reviewInvitationDays: "10" };
  expect(await saveSettings(db, { key: "customerMails", form: off, actorUserId: admin })).toEqual({ ok: true });
  expect(await sendDueCartReminders(db, { links, now: hoursLater(25) })).toBe(0);
  expect(
    await saveSettings(db, { key: "customerMails", form: { ...off, cartReminderEnabled: "on", cartReminderDelayHours: "2" }, actorUserId: admin }),
  ).toEqual({
    ok: true,
  });
  expect(await sendDueCartReminders(db, { links, now: hoursLater(3) })).toBe(1);
  expect((await mailsOf(db, "cart-reminder")).map((mail) => mail.toAddress)).toEqual([other.email]);
});

test("the staff's delay is checked: a delay of no hours or of a month is refused with its message", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const form = { cartReminderEnabled: "on", cartReminderDelayHours: "0", reviewInvitationEnabled: "on", reviewInvitationDays: "90" };
  expect(await saveSettings(db, { key: "customerMails", form, actorUserId: admin })).toEqual({
    ok: false,
    errors: {
      cartReminderDelayHours: "customerMails.settings.errors.cartReminderDelayHours",
      reviewInvitationDays: "customerMails.settings.errors.reviewInvitationDays",
    },
  });
});

test("the mail's opt-out link objects without signing in; a forged link changes nothing; the account takes it back", async () => {
  const db = await openDb();
  const { email } = await customerWithCart(db);
  await sendDueCartReminders(db, { links, now: hoursLater(25) });
  const [mail] = await mailsOf(db, "cart-reminder");
  const token = /promemoria\/cancellazione\?token=([A-Za-z0-9_.-]+)/.exec(mail!.textBody)![1]!;

  const forged = `${Buffer.from("someone.else@example.com").toString("base64url")}.${token.split(".")[1]}`;
  expect(await objectByMailLink(db, links.secret, forged, "mail-link")).toEqual({ ok: false, error: "customerMails.errors.linkInvalid" });
  expect(await objectByMailLink(db, links.secret, "not a token", "mail-link")).toEqual({ ok: false, error: "customerMails.errors.linkInvalid" });
  expect(await getMailChoice(db, email)).toEqual({ objects: false, changedAt: null });

  const at = new Date("2026-11-29T10:00:00Z");
  expect(await objectByMailLink(db, links.secret, token, "one-click", at)).toEqual({ ok: true });
  expect(await objectByMailLink(db, links.secret, token, "mail-link")).toEqual({ ok: true });
  expect(await getMailChoice(db, email.toUpperCase())).toEqual({ objects: true, changedAt: at });

  await setMailChoice(db, { email, objects: false, source: "account" });
  expect((await getMailChoice(db, email)).objects).toBe(false);
});

test("a verified buyer is invited to review each product some days after delivery, once, unless she objected", async () => {
  const db = await openDb();
  const delivered = await deliveredOrder(db, { email: "giulia.bianchi@example.it", placedAt: daysAgo(13), deliveredAt: daysAgo(11) });
  const recent = await deliveredOrder(db, { email: "recente@example.it", placedAt: daysAgo(5), deliveredAt: daysAgo(4) });
  const objecting = await deliveredOrder(db, { email: "no.grazie@example.it", placedAt: daysAgo(13), deliveredAt: daysAgo(11) });
  await setMailChoice(db, { email: "No.Grazie@example.it", objects: true, source: "mail-link" });
  await deliveredOrder(db, { email: "in.viaggio@example.it", stage: "shipped", placedAt: daysAgo(13) });

  expect(await sendDueReviewInvitations(db, { links })).toBe(1);
  const [mail] = await mailsOf(db, "review-invitation");
  expect(mail).toMatchObject({ toAddress: "giulia.bianchi@example.it", subject: "Come ti trovi con il tuo acquisto da Bimbi Felici?" });
  for (const line of [delivered.bib, delivered.blanket, delivered.towel]) {
    expect(mail!.textBody).toContain(`Recensisci «${line.name}»`);
    expect(mail!.textBody).toContain(`/ordine/${delivered.orderId}/recensione/${line.productId}?t=`);
  }
  expect(mail!.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  expect(await sendDueReviewInvitations(db, { links })).toBe(0);
  expect(recent.orderId).not.toBe(objecting.orderId);
  expect(await sendDueReviewInvitations(db, { links, now: hoursLater(24 * 7) })).toBe(1);
  expect((await mailsOf(db, "review-invitation")).map((row) => row.toAddress)).toEqual(["giulia.bianchi@example.it", "recente@example.it"]);
});
