/**
 * The reminder and invitation jobs run by two app processes at once, on real PostgreSQL (PGlite has one connection
 * and cannot race): each cart state is mailed once and each order invited once, whoever gets there first
 * (docs/decisions/0102-customer-mails-consent.md: the records' keys are where two processes meet).
 */
import { eq, sql } from "drizzle-orm";
import { expect, onTestFinished } from "vitest";
import { cartReminders, carts, outboxEmails, reviewInvitations } from "#server/db/schema.ts";
import { startTestWorker } from "#tests/checkout-workers.ts";
import { createTestDb, selectRows, testOnPostgres } from "#tests/db.ts";
import { withDatabase } from "#tests/db.global-setup.ts";
import { deliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith } from "#tests/fixtures/checkout.fixtures.ts";

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

testOnPostgres(
  "two app processes running the cart reminder and the review invitation jobs at once: each cart and each order mailed once",
  async () => {
    const handle = await createTestDb({ poolSize: 4 });
    onTestFinished(() => handle.close());
    const { db } = handle;
    // Three customers who bought (delivered 11 days ago) and left goods in their carts.
    const customers = 3;
    for (let i = 0; i < customers; i += 1) {
      const userId = await createUser(db);
      await deliveredOrder(db, { userId, email: `cliente-${i}@example.it`, placedAt: daysAgo(13), deliveredAt: daysAgo(11) });
      const { variantId } = await createProduct(db, { nameIt: `Passeggino ${i}`, priceCents: 34_900 });
      const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
      await db.update(carts).set({ userId }).where(eq(carts.id, cartId));
    }
    const [current] = await selectRows<{ name: string }>(db, sql`select current_database() as name`);
    const databaseUrl = withDatabase(process.env.TEST_DATABASE_URL!, current!.name);
    // A day after the carts were left: past the staff's 24 hours.
    const now = new Date(Date.now() + 25 * 3_600_000).toISOString();

    const workers = [0, 1].map(() => startTestWorker<number>("tests/customer-mails-worker.ts", [databaseUrl, now, "3"]));
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const [first, second] = await Promise.all(workers.map((worker) => worker.outcomes));
    // [reminders queued, invitations queued] by each process: together, one of each per customer.
    expect([first![0]! + second![0]!, first![1]! + second![1]!]).toEqual([customers, customers]);
    for (const kind of ["cart-reminder", "review-invitation"]) {
      const mails = await db.select({ to: outboxEmails.toAddress }).from(outboxEmails).where(eq(outboxEmails.kind, kind));
      expect(mails).toHaveLength(customers);
      expect(new Set(mails.map((mail) => mail.to)).size).toBe(customers);
    }
    expect(await db.$count(cartReminders)).toBe(customers);
    expect(await db.$count(reviewInvitations)).toBe(customers);
  },
  180_000,
);
