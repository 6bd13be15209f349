import { asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { ecbDailyXml, startRatesEndpoint } from "#tests/peers/local-rates-server.ts";
import { auditLog, outboxEmails } from "#server/db/schema.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import {
  clearExchangeRate,
  listExchangeRates,
  parseOpeningSlots,
  refreshRatesNow,
  resendOutboxEmail,
  saveSettings,
  settingsKeys,
  settingsToForm,
  setExchangeRate,
} from "./settings-admin.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

test("a failed mail goes back to the queue, a sent one is copied, a queued one is refused; each resend audited", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const mail = { to: "maria@example.it", subject: "Ordine 1001", text: "Grazie", kind: "order-confirmation", locale: "it" as const };
  const failed = (await queueEmail(db, mail))!;
  const sent = (await queueEmail(db, { ...mail, subject: "Ordine 1002" }))!;
  const queued = (await queueEmail(db, { ...mail, subject: "Ordine 1003" }))!;
  await db.update(outboxEmails).set({ status: "failed", lastError: "550 no such user" }).where(eq(outboxEmails.id, failed));
  await db.update(outboxEmails).set({ status: "sent", sentAt: new Date() }).where(eq(outboxEmails.id, sent));
  expect(await resendOutboxEmail(db, { id: failed, actorUserId: admin })).toEqual({ ok: true, id: failed });
  const copy = await resendOutboxEmail(db, { id: sent, actorUserId: admin });
  expect(copy.ok && copy.id).not.toBe(sent);
  expect(await resendOutboxEmail(db, { id: queued, actorUserId: admin })).toEqual({ ok: false, error: "mail.errors.alreadyQueued" });
  const rows = await db.select({ subject: outboxEmails.subject, status: outboxEmails.status }).from(outboxEmails).orderBy(asc(outboxEmails.id));
  expect(rows).toEqual([
    { subject: "Ordine 1001", status: "queued" },
    { subject: "Ordine 1002", status: "sent" },
    { subject: "Ordine 1003", status: "queued" },
    { subject: "Ordine 1002", status: "queued" },
  ]);
  expect((await db.select({ action: auditLog.action }).from(auditLog)).map((row) => row.action)).toEqual(["mail.resend", "mail.resend"]);
});

test("exchange rates: a manual rate survives a refresh until cleared; bad rates and unknown currencies are refused", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const source = await startRatesEndpoint({ body: ecbDailyXml({ USD: "1.0900", GBP: "0.8600" }) });
  onTestFinished(source.close);
  expect(await setExchangeRate(db, { currency: "USD", rate: "1,2", actorUserId: admin })).toEqual({ ok: true });
  expect(await setExchangeRate(db, { currency: "USD", rate: "-1", actorUserId: admin })).toEqual({ ok: false, error: "admin.rates.errors.rate" });
  expect(await setExchangeRate(db, { currency: "JPY", rate: "160", actorUserId: admin })).toEqual({
    ok: false,
    error: "admin.rates.errors.currency",
  });
  expect(await refreshRatesNow(db, { url: source.url, actorUserId: admin })).toEqual({ ok: true, updated: ["GBP"], keptManual: ["USD"] });
  expect((await listExchangeRates(db)).map(({ currency, ratePerEur, source: from }) => ({ currency, ratePerEur, from }))).toEqual([
    { currency: "USD", ratePerEur: 1.2, from: "manual" },
    { currency: "GBP", ratePerEur: 0.86, from: "ecb" },
  ]);
  expect(await clearExchangeRate(db, { currency: "USD", actorUserId: admin })).toEqual({ ok: true });
  await refreshRatesNow(db, { url: source.url, actorUserId: admin });
  expect((await listExchangeRates(db))[0]).toMatchObject({ currency: "USD", ratePerEur: 1.09, source: "ecb" });
  expect(await refreshRatesNow(db, { url: undefined, actorUserId: admin })).toEqual({ ok: false, error: "admin.rates.errors.noUrl" });
  expect((await db.select({ action: auditLog.action }).from(auditLog).orderBy(asc(auditLog.id))).map((row) => row.action)).toEqual([
    "rates.override",
    "rates.refresh",
    "rates.clear-override",
    "rates.refresh",
  ]);
});

test("settings: opening hours are saved from the form with an audit row; bad input is refused field by field", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  expect(parseOpeningSlots("9:00-13:00, 15.30-19:00")).toEqual([
    { opens: "09:00", closes: "13:00" },
    { opens: "15:30", closes: "19:00" },
  ]);
  expect(parseOpeningSlots("13:00-09:00")).toBeNull();
  const { shop } = await getSettings(db, ["shop"]);
  const form: Record<string, string> = {
    ...(Object.fromEntries(Object.entries(shop).filter(([, value]) => typeof value === "string")) as Record<string, string>),
    facebookUrl: "",
    instagramUrl: "",
  };
  for (const day of [1, 2, 3, 4, 5, 6]) form[`hours${day}`] = "10:00-19:00";
  form.hours7 = "";
  expect(await saveSettings(db, { key: "shop", form, actorUserId: admin })).toEqual({ ok: true });
  const saved = await getSettings(db, ["shop"]);
  expect(saved.shop.openingHours[1]).toEqual([{ opens: "10:00", closes: "19:00" }]);
  expect(saved.shop.facebookUrl).toBeNull();
  const bad = await saveSettings(db, { key: "shop", form: { ...form, postcode: "8001", hours3: "sempre" }, actorUserId: admin });
  expect(bad).toEqual({ ok: false, errors: { postcode: "admin.settings.errors.postcode", hours3: "admin.settings.errors.hours" } });
  expect(
    await saveSettings(db, {
      key: "delivery",
      form: { localPostcodes: "80013, 80011", standardFee: "-1", cashOnDeliveryFee: "3,00" },
      actorUserId: admin,
    }),
  ).toMatchObject({ ok: false, errors: { standardFee: "admin.errors.priceNegative" } });
  expect(await saveSettings(db, { key: "giftListCompletion", form: { percent: "51", windowDays: "60" }, actorUserId: admin })).toEqual({
    ok: false,
    errors: { percent: "admin.settings.errors.range.giftListCompletion.percent" },
  });
  expect(await db.$count(auditLog)).toBe(1);
});

test("settings: delivery times and closures are saved from the form; bad input is refused field by field and nothing changes", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const form = {
    cutoff: "12:30",
    preparationDays: "1",
    standardDays: "2-3",
    localDeliveryDays: "1",
    collectionDays: "0",
    closures: "14/08/2027, 09/08/2027 - 22/08/2027",
  };
  expect(await saveSettings(db, { key: "deliveryTimes", form, actorUserId: admin })).toEqual({ ok: true });
  expect((await getSettings(db, ["deliveryTimes"])).deliveryTimes).toEqual({
    cutoff: "12:30",
    preparationDays: 1,
    standardDays: { min: 2, max: 3 },
    localDeliveryDays: { min: 1, max: 1 },
    collectionDays: 0,
    closures: [
      { from: "2027-08-14", to: "2027-08-14" },
      { from: "2027-08-09", to: "2027-08-22" },
    ],
  });
  const bad = await saveSettings(db, {
    key: "deliveryTimes",
    form: {
      cutoff: "25:00",
      preparationDays: "31",
      standardDays: "3-1",
      localDeliveryDays: "presto",
      collectionDays: "1",
      closures: "22/08/2027 - 09/08/2027",
    },
    actorUserId: admin,
  });
  expect(bad).toEqual({
    ok: false,
    errors: {
      cutoff: "admin.settings.errors.cutoff",
      preparationDays: "admin.settings.errors.range.deliveryTimes.preparationDays",
      standardDays: "admin.settings.errors.dayRange",
      localDeliveryDays: "admin.settings.errors.dayRange",
      closures: "admin.settings.errors.closures",
    },
  });
  expect(await saveSettings(db, { key: "deliveryTimes", form: { ...form, closures: "31/02/2027" }, actorUserId: admin })).toEqual({
    ok: false,
    errors: { closures: "admin.settings.errors.closures" },
  });
  expect((await getSettings(db, ["deliveryTimes"])).deliveryTimes.cutoff).toBe("12:30");
});

test("settings: the invoices' fiscal data are saved from the form; a bad partita IVA, codice fiscale, regime or half a REA is refused", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const form = {
    denomination: "Culla d'Oro S.r.l.",
    vatNumber: "IT 01234567897",
    fiscalCode: "01234567897",
    regimeFiscale: "rf19",
    street: "Via Toledo",
    houseNumber: "15",
    postcode: "80134",
    city: "Napoli",
    province: "na",
    reaOffice: "",
    reaNumber: "",
  };
  expect(await saveSettings(db, { key: "fiscal", form, actorUserId: admin })).toEqual({ ok: true });
  expect((await getSettings(db, ["fiscal"])).fiscal).toEqual({
    ...form,
    vatNumber: "01234567897",
    regimeFiscale: "RF19",
    province: "NA",
    reaOffice: null,
    reaNumber: null,
  });
  const bad = await saveSettings(db, {
    key: "fiscal",
    form: { ...form, vatNumber: "01234567890", fiscalCode: "RSSMRA85T10A562T", regimeFiscale: "RF03", reaOffice: "NA", denomination: "" },
    actorUserId: admin,
  });
  expect(bad).toEqual({
    ok: false,
    errors: {
      denomination: "invoices.settings.errors.required",
      vatNumber: "invoices.settings.errors.vatNumber",
      fiscalCode: "invoices.settings.errors.fiscalCode",
      regimeFiscale: "invoices.settings.errors.regimeFiscale",
      reaNumber: "invoices.settings.errors.rea",
    },
  });
  expect((await getSettings(db, ["fiscal"])).fiscal.regimeFiscale).toBe("RF19");
  expect(await db.$count(auditLog)).toBe(1);
});

test("the withdrawal period and its start are settings: at least 14 days, a known start, instructions in both languages", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const form = {
    withdrawalDays: "30",
    homeDeliveryStart: "shipped",
    collectionStart: "collected",
    returnInstructionsIt: "Portali in negozio.",
    returnInstructionsEn: "Bring them to the shop.",
  };
  expect(await saveSettings(db, { key: "afterSales", form, actorUserId: admin })).toEqual({ ok: true });
  expect((await getSettings(db, ["afterSales"])).afterSales).toMatchObject({
    withdrawalDays: 30,
    homeDeliveryStart: "shipped",
    collectionStart: "collected",
  });
  expect(
    await saveSettings(db, {
      key: "afterSales",
      form: { ...form, withdrawalDays: "10", homeDeliveryStart: "domani", returnInstructionsEn: "" },
      actorUserId: admin,
    }),
  ).toEqual({
    ok: false,
    errors: {
      withdrawalDays: "afterSales.settings.errors.withdrawalDays",
      homeDeliveryStart: "afterSales.settings.errors.homeDeliveryStart",
      returnInstructionsEn: "afterSales.settings.errors.returnInstructionsEn",
    },
  });
  expect((await getSettings(db, ["afterSales"])).afterSales.withdrawalDays).toBe(30);
});

test("courier tracking pages are https addresses with the {tracking} placeholder", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const form = {
    brt: "https://tracking.brt.example/{tracking}",
    gls: "https://gls.example/track?n={tracking}",
    poste: "https://poste.example/#/{tracking}",
    sda: "https://sda.example/?lv={tracking}",
  };
  expect(await saveSettings(db, { key: "tracking", form, actorUserId: admin })).toEqual({ ok: true });
  expect((await getSettings(db, ["tracking"])).tracking.brt).toBe("https://tracking.brt.example/{tracking}");
  expect(
    await saveSettings(db, {
      key: "tracking",
      form: { ...form, brt: "https://tracking.brt.example/", gls: "http://gls.example/{tracking}", sda: "javascript:alert(1)//{tracking}" },
      actorUserId: admin,
    }),
  ).toEqual({
    ok: false,
    errors: {
      brt: "admin.settings.errors.trackingTemplate",
      gls: "admin.settings.errors.trackingTemplate",
      sda: "admin.settings.errors.trackingTemplate",
    },
  });
  expect((await getSettings(db, ["tracking"])).tracking.brt).toBe("https://tracking.brt.example/{tracking}");
});

test("the online payment methods are settings: which are offered and their order limits in euros; bad limits are refused", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const form = { ...settingsToForm(await getSettings(db, settingsKeys)).onlinePayments, paypalEnabled: "on", klarnaEnabled: "on", klarnaMin: "50" };
  expect(form).toMatchObject({ cardEnabled: "on", klarnaMin: "50", klarnaMax: "4000,00", satispayEnabled: "" });
  expect(await saveSettings(db, { key: "onlinePayments", form, actorUserId: admin })).toEqual({ ok: true });
  expect((await getSettings(db, ["onlinePayments"])).onlinePayments).toMatchObject({
    card: { enabled: true, minCents: null, maxCents: null },
    paypal: { enabled: true },
    satispay: { enabled: false },
    klarna: { enabled: true, minCents: 5000, maxCents: 400_000 },
  });

  expect(
    await saveSettings(db, {
      key: "onlinePayments",
      form: { ...form, klarnaMax: "20", satispayMin: "dieci", sepa_debitMax: "0,10" },
      actorUserId: admin,
    }),
  ).toEqual({
    ok: false,
    errors: {
      klarnaMax: "admin.settings.errors.onlinePaymentLimit",
      satispayMin: "admin.errors.priceInvalid",
      sepa_debitMax: "admin.settings.errors.onlinePaymentLimit",
    },
  });
  expect((await getSettings(db, ["onlinePayments"])).onlinePayments.klarna.maxCents).toBe(400_000);
});
