import { expect, test } from "vitest";
import { readEnv } from "#server/env.ts";
import { defaultSettings } from "#server/settings/settings.ts";
import { getLaunchChecks, getSafetyLaunchChecks, isExampleAddress } from "./launch-checklist";

const sample = {
  shop: defaultSettings.shop,
  bankTransfer: defaultSettings.bankTransfer,
  newsletter: defaultSettings.newsletter,
  fiscal: defaultSettings.fiscal,
};
const live = {
  shop: {
    ...defaultSettings.shop,
    legalName: "Culla d'Oro di Rossi Maria & C. s.n.c.",
    vatNumber: "IT01234560633",
    street: "Corso Umberto I, 7",
    phone: "+39 081 555 0101",
    whatsapp: "393405550101",
    email: "ciao@cullaoro.it",
    facebookUrl: "https://www.facebook.com/cullaoro",
    instagramUrl: null,
  },
  bankTransfer: {
    ...defaultSettings.bankTransfer,
    iban: "IT02L1234512345123456789012",
    beneficiary: "Culla d'Oro s.n.c.",
    bankName: "Banca di Napoli",
  },
  newsletter: { url: null },
  fiscal: {
    ...defaultSettings.fiscal,
    denomination: "Culla d'Oro di Rossi Maria & C. s.n.c.",
    vatNumber: "01234567897",
    fiscalCode: "01234567897",
    reaOffice: null,
    reaNumber: null,
  },
};

test("a fresh try-out lists every sample setting with where to fix it", () => {
  const env = readEnv({ ALLOW_LOCALHOST_PUBLIC_URL: "true" });
  expect(getLaunchChecks(env, "http://localhost:3000", sample)).toEqual([
    { code: "publicUrlLocal", where: "env", variable: "PUBLIC_URL", value: "http://localhost:3000" },
    { code: "mailFromSample", where: "env", variable: "MAIL_FROM", value: "Bimbi Shop <negozio@example.it>" },
    { code: "noSmtp", where: "env", variable: "SMTP_URL" },
    { code: "noStripe", where: "env", variable: "STRIPE_SECRET_KEY" },
    { code: "authSecretGenerated", where: "env", variable: "AUTH_SECRET" },
    ...(["legalName", "vatNumber", "street", "phone", "whatsapp", "email", "facebookUrl", "instagramUrl"] as const).map((field) => ({
      code: "sampleValue",
      where: "settings",
      section: "shop",
      field,
      value: defaultSettings.shop[field],
    })),
    ...(["iban", "beneficiary", "bankName"] as const).map((field) => ({
      code: "sampleValue",
      where: "settings",
      section: "bankTransfer",
      field,
      value: defaultSettings.bankTransfer[field],
    })),
    ...(["denomination", "vatNumber", "fiscalCode", "reaNumber"] as const).map((field) => ({
      code: "sampleValue",
      where: "settings",
      section: "fiscal",
      field,
      value: defaultSettings.fiscal[field],
    })),
  ]);
});

test("a shop with its own data, mail, live payments and an https address has nothing left", () => {
  const env = readEnv({
    PUBLIC_URL: "https://www.cullaoro.it",
    MAIL_FROM: "Culla d'Oro <negozio@cullaoro.it>",
    SMTP_URL: "smtp://negozio:segreto@smtp.cullaoro.it:587",
    STRIPE_SECRET_KEY: "sk_live_abc",
    STRIPE_WEBHOOK_SECRET: "whsec_abc",
    AUTH_SECRET: "x".repeat(40),
  });
  expect(getLaunchChecks(env, "https://www.cullaoro.it", live)).toEqual([]);
});

test("plain http, Stripe test keys and any example domain are still listed", () => {
  const env = readEnv({
    MAIL_FROM: "Negozio <shop@example.com>",
    SMTP_URL: "smtp://127.0.0.1:2525",
    STRIPE_SECRET_KEY: "sk_test_abc",
    STRIPE_WEBHOOK_SECRET: "whsec_abc",
    AUTH_SECRET: "x".repeat(40),
  });
  const checks = getLaunchChecks(env, "http://www.cullaoro.it", {
    ...live,
    shop: { ...live.shop, instagramUrl: "https://instagram.com/negozio.example" },
  });
  expect(checks.map((check) => check.code)).toEqual(["publicUrlHttp", "mailFromSample", "stripeTestMode", "sampleValue"]);
  expect(checks.at(-1)).toEqual({
    code: "sampleValue",
    where: "settings",
    section: "shop",
    field: "instagramUrl",
    value: "https://instagram.com/negozio.example",
  });
});

test("example domains are told apart from real ones that merely contain the word", () => {
  for (const value of [
    "negozio@example.it",
    "Bimbi Shop <negozio@example.it>",
    "https://www.facebook.com/bimbifelici.example",
    "https://newsletter.example.com/x",
    "info@shop.example",
  ]) {
    expect(isExampleAddress(value), value).toBe(true);
  }
  for (const value of ["ciao@cullaoro.it", "https://www.counterexample.it", "https://exemplary.it/example-page", "Negozio <shop@myexample.it>"]) {
    expect(isExampleAddress(value), value).toBe(false);
  }
});

test("products lacking safety data and sample manufacturers are listed with their counts; none, nothing", () => {
  expect(getSafetyLaunchChecks({ productsMissingData: 3, sampleContacts: 0 })).toEqual([{ code: "productSafety", where: "safety", count: 3 }]);
  expect(getSafetyLaunchChecks({ productsMissingData: 0, sampleContacts: 2 })).toEqual([{ code: "sampleContacts", where: "safety", count: 2 }]);
  expect(getSafetyLaunchChecks({ productsMissingData: 0, sampleContacts: 0 })).toEqual([]);
});
