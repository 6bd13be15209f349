import { expect, onTestFinished, test } from "vitest";
import { users } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { insertOrder } from "#tests/fixtures/accounts.fixtures.ts";
import { listPurchases } from "./purchases.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  await handle.db.insert(users).values([
    { id: "anna", name: "Anna", email: "anna@example.com" },
    { id: "bruno", name: "Bruno", email: "bruno@example.com" },
  ]);
  return handle.db;
}

test("no orders yet: an empty list", async () => {
  const db = await openDb();
  expect(await listPurchases(db, "anna")).toEqual([]);
});

test("only the customer's own orders, newest first, each with its lines and status", async () => {
  const db = await openDb();
  const older = await insertOrder(db, "anna", { createdAt: new Date("2026-03-01T10:00:00Z"), status: "completed" });
  const newer = await insertOrder(db, "anna", {
    createdAt: new Date("2026-05-01T10:00:00Z"),
    status: "shipped",
    lines: [
      { name: "Body in cotone", quantity: 2, unitPriceCents: 1_290, colour: "white", size: "6-18 mesi" },
      { name: "Biberon 250ml", quantity: 1, unitPriceCents: 990 },
    ],
  });
  await insertOrder(db, "bruno");
  await insertOrder(db, null);

  const purchases = await listPurchases(db, "anna");
  expect(purchases.map((order) => order.number)).toEqual([newer.number, older.number]);
  expect(purchases[0]).toMatchObject({ status: "shipped", totalCents: 2 * 1_290 + 990 });
  expect(purchases[0]!.lines.map((line) => [line.name, line.quantity, line.lineTotalCents, line.colour, line.size])).toEqual([
    ["Biberon 250ml", 1, 990, null, null],
    ["Body in cotone", 2, 2_580, "white", "6-18 mesi"],
  ]);
  expect(purchases[1]).toMatchObject({ status: "completed", lines: [expect.objectContaining({ name: "Passeggino Trio" })] });
  expect(await listPurchases(db, "bruno")).toHaveLength(1);
});

test("a shipped order links to its courier's tracking page; another courier's number stays plain text", async () => {
  const db = await openDb();
  await insertOrder(db, "anna", { status: "shipped", carrier: "SDA", trackingNumber: "SDA 99", createdAt: new Date("2026-05-02T10:00:00Z") });
  await insertOrder(db, "anna", { status: "shipped", carrier: "Fermopoint", trackingNumber: "F1", createdAt: new Date("2026-05-01T10:00:00Z") });
  const [sda, other] = await listPurchases(db, "anna");
  expect(sda!.trackingUrl).toBe("https://www.sda.it/wps/portal/Servizi_online/dettaglio-spedizione?locale=it&tracing.letteraVettura=SDA%2099");
  expect(other!.trackingUrl).toBeNull();
});
