import { expect, onTestFinished, test } from "vitest";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { createTestDb } from "#tests/db.ts";
import { getGiftListChoicesAndFilling } from "./gift-list-filling.service.ts";
import { addProductToGiftList, closeGiftList, createGiftList } from "./gift-list.service.ts";

const now = new Date("2026-03-01T10:00:00Z");

async function openList() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const db = handle.db;
  const owner = await createUser(db);
  const created = await createGiftList(db, {
    userId: owner,
    input: {
      title: "La lista di Sofia",
      type: "nascita",
      eventDate: "2026-06-15",
      celebratedNames: "Sofia",
      shippingAddressId: "collection",
      visibility: "public",
    },
    now,
  });
  if (!created.ok) throw new Error(JSON.stringify(created));
  return { db, owner, list: created };
}

test("the running total counts products and units at today's price, the embroidery of personalised ones included", async () => {
  const { db, owner, list } = await openList();
  const sale = await createProduct(db, { priceCents: 2000, discountPercent: 25 });
  const named = await createProduct(db, {
    priceCents: 1990,
    personalisationFields: [{ labelIt: "Nome", labelEn: "Name", maxLength: 12 }],
    personalisationCostCents: 700,
  });
  const fill = (args: { variantId: number; quantity: number; personalisation?: Record<string, string> }) =>
    addProductToGiftList(db, { userId: owner, input: { giftListId: list.id, ...args } });
  await fill({ variantId: sale.variantId, quantity: 1 });
  await fill({ variantId: sale.variantId, quantity: 2 });
  await fill({ variantId: named.variantId, quantity: 2, personalisation: { "0": "Sofia" } });
  const { choices, filling } = await getGiftListChoicesAndFilling(db, { userId: owner, fillingId: list.id, locale: "it", now });
  expect(choices).toEqual([{ id: list.id, title: "La lista di Sofia", code: list.code }]);
  expect(filling).toEqual({
    id: list.id,
    code: list.code,
    title: "La lista di Sofia",
    productCount: 2,
    unitCount: 5,
    // 3 x 15,00 + 2 x (19,90 + 7,00)
    totalCents: 3 * 1500 + 2 * (1990 + 700),
  });
});

test("no list to fill: someone else's, none chosen, or a closed one, which is no choice either", async () => {
  const { db, owner, list } = await openList();
  const stranger = await createUser(db);
  const read = (userId: string, fillingId: string | null) => getGiftListChoicesAndFilling(db, { userId, fillingId, locale: "it", now });
  expect(await read(stranger, list.id)).toEqual({ choices: [], filling: null });
  expect(await read(owner, null)).toEqual({ choices: [{ id: list.id, title: "La lista di Sofia", code: list.code }], filling: null });
  await closeGiftList(db, { userId: owner, giftListId: list.id });
  expect(await read(owner, list.id)).toEqual({ choices: [], filling: null });
});
