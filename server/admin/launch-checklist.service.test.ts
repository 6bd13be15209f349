import { expect, onTestFinished, test } from "vitest";
import { readEnv } from "#server/env.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { getLaunchChecklist } from "./launch-checklist.service";
import { saveSettings, settingsKeys, settingsToForm } from "./settings-admin.service";

test("the checklist reads the stored settings: what the back office replaces leaves the list, the environment's items stay", async () => {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const db = handle.db;
  const admin = await createAdminUser(db);
  const env = readEnv({ NODE_ENV: "test", PUBLIC_URL: "https://www.cullaoro.it", AUTH_SECRET: "x".repeat(40) });
  const listed = async () =>
    (await getLaunchChecklist(db, { env, publicUrl: "https://www.cullaoro.it" })).map((check) =>
      check.where === "env" ? check.variable : check.where === "settings" ? `${check.section}.${check.field}` : check.code,
    );

  expect(await listed()).toEqual([
    "MAIL_FROM",
    "SMTP_URL",
    "STRIPE_SECRET_KEY",
    ...["legalName", "vatNumber", "street", "phone", "whatsapp", "email", "facebookUrl", "instagramUrl"].map((field) => `shop.${field}`),
    "bankTransfer.iban",
    "bankTransfer.beneficiary",
    "bankTransfer.bankName",
    ...["denomination", "vatNumber", "fiscalCode", "reaNumber"].map((field) => `fiscal.${field}`),
  ]);

  const form = settingsToForm(await getSettings(db, settingsKeys));
  const shop = {
    ...form.shop,
    vatNumber: "IT01234560633",
    email: "ciao@cullaoro.it",
    facebookUrl: "",
    instagramUrl: "https://www.instagram.com/cullaoro",
  };
  expect(await saveSettings(db, { key: "shop", form: shop, actorUserId: admin })).toEqual({ ok: true });
  expect(
    await saveSettings(db, { key: "bankTransfer", form: { ...form.bankTransfer, iban: "IT02L1234512345123456789012" }, actorUserId: admin }),
  ).toEqual({ ok: true });
  expect(await saveSettings(db, { key: "newsletter", form: { url: "" }, actorUserId: admin })).toEqual({ ok: true });
  const fiscal = { ...form.fiscal, vatNumber: "01234567897", fiscalCode: "01234567897", reaOffice: "", reaNumber: "" };
  expect(await saveSettings(db, { key: "fiscal", form: fiscal, actorUserId: admin })).toEqual({ ok: true });

  expect(await listed()).toEqual([
    "MAIL_FROM",
    "SMTP_URL",
    "STRIPE_SECRET_KEY",
    "shop.legalName",
    "shop.street",
    "shop.phone",
    "shop.whatsapp",
    "bankTransfer.beneficiary",
    "bankTransfer.bankName",
    "fiscal.denomination",
  ]);
});
