/**
 * The back office's settings, mail outbox and exchange rates. A settings form arrives as strings
 * (money in euros, lists one per line or comma separated, opening hours "09:30-13:00, 16:30-20:00"
 * per weekday), becomes the key's value and is checked by the key's own zod shape (settings.ts)
 * before it is stored, with its audit row in the same transaction.
 */
import type { Db } from "#server/db/client.ts";
import { shopSettings } from "#server/db/schema.ts";
import { clearExchangeRateOverride, getExchangeRates, overrideExchangeRate, refreshExchangeRates } from "#server/currency/rates.service.ts";
import { convertedCurrencies, isConvertedCurrency, isUsableRate, type ConvertedCurrency } from "#server/currency/rates.ts";
import { resendEmail } from "#server/mail/delivery.service.ts";
import { settingsSchemas, type Settings, type SettingsKey } from "#server/settings/settings.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { normaliseFiscalCode } from "#server/accounts/fiscal-code.ts";
import { normaliseVatNumber } from "#server/invoices/fiscal-codes.ts";
import { onlinePaymentMethods } from "#common/online-payment-methods.ts";
import { formatEuroInput, parseEuroCents } from "./product-admin.inputs";
import { recordAudit } from "./audit.service";

export const settingsKeys = Object.keys(settingsSchemas) as SettingsKey[];
export const weekdays = [1, 2, 3, 4, 5, 6, 7] as const;

export function isSettingsKey(value: unknown): value is SettingsKey {
  return typeof value === "string" && (settingsKeys as string[]).includes(value);
}

/** Field name -> error message key. */
export type SettingsErrors = Record<string, string>;

const list = (raw: string) =>
  raw
    .split(/[\n,;]/)
    .map((item) => item.trim())
    .filter(Boolean);

const optionalUrl = (raw: string) => (raw.trim() === "" ? null : raw.trim());

/** "09:30-13:00, 16:30-20:00" -> slots; "" or "chiuso"/"closed" -> closed. Null when unreadable. */
export function parseOpeningSlots(raw: string): { opens: string; closes: string }[] | null {
  const text = raw.trim();
  if (text === "" || /^(chiuso|closed)$/i.test(text)) return [];
  const slots = text.split(/[,;]/).map((part) => /^\s*(\d{1,2})[:.](\d{2})\s*[-–]\s*(\d{1,2})[:.](\d{2})\s*$/.exec(part));
  if (slots.some((match) => !match)) return null;
  const result = slots.map((match) => ({
    opens: `${match![1]!.padStart(2, "0")}:${match![2]}`,
    closes: `${match![3]!.padStart(2, "0")}:${match![4]}`,
  }));
  if (result.some((slot) => slot.opens >= slot.closes)) return null;
  return result;
}

export function formatOpeningSlots(slots: { opens: string; closes: string }[]): string {
  return slots.map((slot) => `${slot.opens}-${slot.closes}`).join(", ");
}

/** "1-2" or "2" (both ends the same) -> { min, max }; null when unreadable. */
export function parseDayRange(raw: string): { min: number; max: number } | null {
  const match = /^\s*(\d{1,3})\s*(?:[-–]\s*(\d{1,3})\s*)?$/.exec(raw);
  return match ? { min: Number(match[1]), max: Number(match[2] ?? match[1]) } : null;
}

const formatDayRange = (range: { min: number; max: number }) => (range.min === range.max ? String(range.min) : `${range.min}-${range.max}`);

const closureDay = String.raw`(\d{1,2})/(\d{1,2})/(\d{4})`;
const closurePattern = new RegExp(`^${closureDay}(?:\\s*[-–]\\s*${closureDay})?$`);
const isoOf = (day: string, month: string, year: string) => `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
const italianDayText = (iso: string) => iso.split("-").reverse().join("/");

/** One closure per line or comma: "15/08/2027" or "09/08/2027 - 22/08/2027". Null when a line is unreadable. */
export function parseClosures(raw: string): { from: string; to: string }[] | null {
  const closures = [];
  for (const item of list(raw)) {
    const match = closurePattern.exec(item);
    if (!match) return null;
    const from = isoOf(match[1]!, match[2]!, match[3]!);
    closures.push({ from, to: match[4] ? isoOf(match[4], match[5]!, match[6]!) : from });
  }
  return closures;
}

function formatClosures(closures: readonly { from: string; to: string }[]): string {
  return closures
    .map((closure) =>
      closure.from === closure.to ? italianDayText(closure.from) : `${italianDayText(closure.from)} - ${italianDayText(closure.to)}`,
    )
    .join(", ");
}

function wholeNumber(raw: string): number | null {
  return /^\s*\d{1,6}\s*$/.test(raw) ? Number(raw) : null;
}

/** The form's fields for one key, as the page fills them in. */
export function settingsToForm(settings: Settings): Record<SettingsKey, Record<string, string>> {
  const {
    shop,
    delivery,
    deliveryTimes,
    bankTransfer,
    giftListCompletion,
    newsletter,
    api,
    fiscal,
    afterSales,
    tracking,
    onlinePayments,
    invoicing,
    customerMails,
    loyalty,
    giftCardSales,
  } = settings;
  return {
    shop: {
      ...Object.fromEntries(Object.entries(shop).filter(([, value]) => typeof value === "string")),
      facebookUrl: shop.facebookUrl ?? "",
      instagramUrl: shop.instagramUrl ?? "",
      ...Object.fromEntries(weekdays.map((day) => [`hours${day}`, formatOpeningSlots(shop.openingHours[day])])),
    },
    delivery: {
      localPostcodes: delivery.localPostcodes.join(", "),
      standardFee: formatEuroInput(delivery.standardFeeCents),
      cashOnDeliveryFee: formatEuroInput(delivery.cashOnDeliveryFeeCents),
    },
    deliveryTimes: {
      cutoff: deliveryTimes.cutoff,
      preparationDays: String(deliveryTimes.preparationDays),
      standardDays: formatDayRange(deliveryTimes.standardDays),
      localDeliveryDays: formatDayRange(deliveryTimes.localDeliveryDays),
      collectionDays: String(deliveryTimes.collectionDays),
      closures: formatClosures(deliveryTimes.closures),
    },
    bankTransfer: {
      iban: bankTransfer.iban,
      beneficiary: bankTransfer.beneficiary,
      bankName: bankTransfer.bankName,
      daysToPay: String(bankTransfer.daysToPay),
    },
    giftListCompletion: { percent: String(giftListCompletion.percent), windowDays: String(giftListCompletion.windowDays) },
    newsletter: { url: newsletter.url ?? "" },
    api: { allowedOrigins: api.allowedOrigins.join("\n") },
    fiscal: Object.fromEntries(Object.entries(fiscal).map(([name, value]) => [name, value ?? ""])),
    afterSales: {
      withdrawalDays: String(afterSales.withdrawalDays),
      homeDeliveryStart: afterSales.homeDeliveryStart,
      collectionStart: afterSales.collectionStart,
      returnInstructionsIt: afterSales.returnInstructionsIt,
      returnInstructionsEn: afterSales.returnInstructionsEn,
    },
    tracking: { ...tracking },
    invoicing: { issueAt: invoicing.issueAt },
    customerMails: {
      cartReminderEnabled: customerMails.cartReminderEnabled ? "on" : "",
      cartReminderDelayHours: String(customerMails.cartReminderDelayHours),
      reviewInvitationEnabled: customerMails.reviewInvitationEnabled ? "on" : "",
      reviewInvitationDays: String(customerMails.reviewInvitationDays),
    },
    loyalty: {
      pointsPerEuro: String(loyalty.pointsPerEuro),
      stepPoints: String(loyalty.stepPoints),
      stepValue: formatEuroInput(loyalty.stepCents),
      expiryMonths: String(loyalty.expiryMonths),
      noticeDays: String(loyalty.noticeDays),
      excludedKinds: loyalty.excludedKinds.join(", "),
    },
    giftCardSales: {
      presets: giftCardSales.presetCents.map(formatEuroInput).join("; "),
      min: formatEuroInput(giftCardSales.minCents),
      max: formatEuroInput(giftCardSales.maxCents),
      validityMonths: String(giftCardSales.validityMonths),
    },
    onlinePayments: Object.fromEntries(
      onlinePaymentMethods.flatMap((method) => {
        const { enabled, minCents, maxCents } = onlinePayments[method];
        return [
          [`${method}Enabled`, enabled ? "on" : ""],
          [`${method}Min`, minCents === null ? "" : formatEuroInput(minCents)],
          [`${method}Max`, maxCents === null ? "" : formatEuroInput(maxCents)],
        ];
      }),
    ),
  };
}

/** An optional amount in euros: "" is no limit (null); errors go to `errors[name]`. */
function optionalEuroCents(raw: string, name: string, errors: SettingsErrors): number | null {
  if (raw === "") return null;
  const parsed = parseEuroCents(raw);
  if (!parsed.ok) errors[name] = parsed.error;
  return parsed.ok ? parsed.cents : null;
}

type Parsed = { ok: true; value: unknown } | { ok: false; errors: SettingsErrors };

/** Builds the key's value from the form; errors point at fields. */
export function parseSettingsForm(key: SettingsKey, form: Record<string, string>): Parsed {
  const errors: SettingsErrors = {};
  const field = (name: string) => (form[name] ?? "").trim();
  let value: unknown;
  switch (key) {
    case "shop": {
      const openingHours: Record<number, unknown> = {};
      for (const day of weekdays) {
        const slots = parseOpeningSlots(field(`hours${day}`));
        if (slots === null) errors[`hours${day}`] = "admin.settings.errors.hours";
        openingHours[day] = slots ?? [];
      }
      value = {
        name: field("name"),
        legalName: field("legalName"),
        vatNumber: field("vatNumber"),
        street: field("street"),
        postcode: field("postcode"),
        city: field("city"),
        province: field("province").toUpperCase(),
        phone: field("phone"),
        whatsapp: field("whatsapp").replace(/[\s+]/g, ""),
        email: field("email"),
        facebookUrl: optionalUrl(field("facebookUrl")),
        instagramUrl: optionalUrl(field("instagramUrl")),
        openingHours,
      };
      break;
    }
    case "delivery": {
      const standard = parseEuroCents(field("standardFee"));
      const cod = parseEuroCents(field("cashOnDeliveryFee"));
      if (!standard.ok) errors.standardFee = standard.error;
      if (!cod.ok) errors.cashOnDeliveryFee = cod.error;
      value = {
        localPostcodes: list(field("localPostcodes")),
        standardFeeCents: standard.ok ? standard.cents : -1,
        cashOnDeliveryFeeCents: cod.ok ? cod.cents : -1,
      };
      break;
    }
    case "deliveryTimes": {
      const closures = parseClosures(field("closures"));
      if (closures === null) errors.closures = "admin.settings.errors.closures";
      const cutoff = /^\d:\d{2}$/.test(field("cutoff")) ? `0${field("cutoff")}` : field("cutoff").replace(".", ":");
      value = {
        cutoff,
        preparationDays: wholeNumber(field("preparationDays")),
        standardDays: parseDayRange(field("standardDays")),
        localDeliveryDays: parseDayRange(field("localDeliveryDays")),
        collectionDays: wholeNumber(field("collectionDays")),
        closures: closures ?? [],
      };
      break;
    }
    case "bankTransfer":
      value = {
        iban: field("iban").replace(/\s/g, "").toUpperCase(),
        beneficiary: field("beneficiary"),
        bankName: field("bankName"),
        daysToPay: wholeNumber(field("daysToPay")),
      };
      break;
    case "giftListCompletion":
      value = { percent: wholeNumber(field("percent")), windowDays: wholeNumber(field("windowDays")) };
      break;
    case "newsletter":
      value = { url: optionalUrl(field("url")) };
      break;
    case "api":
      value = { allowedOrigins: list(field("allowedOrigins")) };
      break;
    case "fiscal": {
      const optional = (name: string) => field(name).toUpperCase() || null;
      value = {
        denomination: field("denomination"),
        vatNumber: normaliseVatNumber(field("vatNumber")),
        fiscalCode: normaliseFiscalCode(field("fiscalCode")),
        street: field("street"),
        houseNumber: field("houseNumber") || null,
        postcode: field("postcode"),
        city: field("city"),
        province: field("province").toUpperCase(),
        regimeFiscale: field("regimeFiscale").toUpperCase(),
        reaOffice: optional("reaOffice"),
        reaNumber: optional("reaNumber"),
      };
      break;
    }
    case "afterSales":
      value = {
        withdrawalDays: wholeNumber(field("withdrawalDays")),
        homeDeliveryStart: field("homeDeliveryStart"),
        collectionStart: field("collectionStart"),
        returnInstructionsIt: field("returnInstructionsIt"),
        returnInstructionsEn: field("returnInstructionsEn"),
      };
      break;
    case "tracking":
      value = { brt: field("brt"), gls: field("gls"), poste: field("poste"), sda: field("sda") };
      break;
    case "invoicing":
      value = { issueAt: field("issueAt") };
      break;
    case "customerMails":
      value = {
        cartReminderEnabled: ["on", "true", "1"].includes(field("cartReminderEnabled")),
        cartReminderDelayHours: wholeNumber(field("cartReminderDelayHours")),
        reviewInvitationEnabled: ["on", "true", "1"].includes(field("reviewInvitationEnabled")),
        reviewInvitationDays: wholeNumber(field("reviewInvitationDays")),
      };
      break;
    case "loyalty": {
      const stepValue = parseEuroCents(field("stepValue"));
      if (!stepValue.ok) errors.stepValue = "loyalty.settings.errors.stepValue";
      value = {
        pointsPerEuro: wholeNumber(field("pointsPerEuro")),
        stepPoints: wholeNumber(field("stepPoints")),
        stepCents: stepValue.ok ? stepValue.cents : null,
        expiryMonths: wholeNumber(field("expiryMonths")),
        noticeDays: wholeNumber(field("noticeDays")),
        excludedKinds: field("excludedKinds")
          .split(/[\s,]+/)
          .filter(Boolean),
      };
      break;
    }
    case "giftCardSales": {
      const presets = field("presets")
        .split(/[\s;]+/)
        .filter(Boolean)
        .map(parseEuroCents);
      if (presets.some((preset) => !preset.ok)) errors.presets = "vouchers.settings.errors.presets";
      const min = parseEuroCents(field("min"));
      const max = parseEuroCents(field("max"));
      value = {
        presetCents: presets.map((preset) => (preset.ok ? preset.cents : null)),
        minCents: min.ok ? min.cents : null,
        maxCents: max.ok ? max.cents : null,
        validityMonths: wholeNumber(field("validityMonths")),
      };
      break;
    }
    case "onlinePayments":
      value = Object.fromEntries(
        onlinePaymentMethods.map((method) => [
          method,
          {
            enabled: ["on", "true", "1"].includes(field(`${method}Enabled`)),
            minCents: optionalEuroCents(field(`${method}Min`), `${method}Min`, errors),
            maxCents: optionalEuroCents(field(`${method}Max`), `${method}Max`, errors),
          },
        ]),
      );
      break;
  }
  const checked = settingsSchemas[key].safeParse(value);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const [first, second] = issue.path.map(String);
      const name =
        key === "onlinePayments"
          ? `${first}${second === "minCents" ? "Min" : "Max"}`
          : first === "openingHours"
            ? `hours${second}`
            : first === "standardFeeCents"
              ? "standardFee"
              : first === "cashOnDeliveryFeeCents"
                ? "cashOnDeliveryFee"
                : (first ?? "form");
      // The fiscal data and the after-sales settings keep their words in their own sections of the messages.
      errors[name] ??=
        key === "fiscal"
          ? fiscalErrorKey(name)
          : key === "afterSales"
            ? `afterSales.settings.errors.${name}`
            : key === "invoicing"
              ? `sdi.settings.errors.${name}`
              : key === "customerMails"
                ? `customerMails.settings.errors.${name}`
                : key === "loyalty"
                  ? `loyalty.settings.errors.${first === "stepCents" ? "stepValue" : name}`
                  : key === "giftCardSales"
                    ? `vouchers.settings.errors.${first === "presetCents" ? "presets" : first === "minCents" ? "min" : first === "maxCents" ? "max" : name}`
                    : key === "onlinePayments"
                      ? `admin.settings.errors.onlinePaymentLimit`
                      : `admin.settings.errors.${issueKind(key, name)}`;
    }
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, value: checked.data };
}

/** One message per field kind: what a person can fix. */
function issueKind(key: SettingsKey, name: string): string {
  if (["postcode", "localPostcodes"].includes(name)) return "postcode";
  if (["facebookUrl", "instagramUrl", "url", "allowedOrigins"].includes(name)) return "url";
  if (key === "tracking") return "trackingTemplate";
  if (name === "email") return "email";
  if (name === "province") return "province";
  if (name === "whatsapp") return "whatsapp";
  if (name === "iban") return "iban";
  if (name.startsWith("hours")) return "hours";
  if (name === "cutoff") return "cutoff";
  if (["standardDays", "localDeliveryDays"].includes(name)) return "dayRange";
  if (name === "closures") return "closures";
  if (["preparationDays", "collectionDays"].includes(name)) return `range.${key}.${name}`;
  if (["daysToPay", "percent", "windowDays"].includes(name)) return `range.${key}.${name}`;
  if (["standardFee", "cashOnDeliveryFee"].includes(name)) return "money";
  return "required";
}

export async function saveSettings(
  db: Db,
  args: { key: SettingsKey; form: Record<string, string>; actorUserId: string },
): Promise<{ ok: true } | { ok: false; errors: SettingsErrors }> {
  const parsed = parseSettingsForm(args.key, args.form);
  if (!parsed.ok) return parsed;
  await db.transaction(async (tx) => {
    const before = await getSettings(tx, [args.key]);
    await tx
      .insert(shopSettings)
      .values({ key: args.key, value: parsed.value, updatedByUserId: args.actorUserId })
      .onConflictDoUpdate({ target: shopSettings.key, set: { value: parsed.value, updatedByUserId: args.actorUserId, updatedAt: new Date() } });
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "settings.update",
      entity: "settings",
      entityId: args.key,
      details: { before: before[args.key], after: parsed.value },
    });
  });
  return { ok: true };
}

/** The fiscal data's messages live with the invoices' (messages: `invoices.settings.errors`). */
function fiscalErrorKey(name: string): string {
  const kinds: Record<string, string> = {
    vatNumber: "vatNumber",
    fiscalCode: "fiscalCode",
    postcode: "postcode",
    province: "province",
    reaOffice: "rea",
    reaNumber: "rea",
    regimeFiscale: "regimeFiscale",
    houseNumber: "houseNumber",
  };
  return `invoices.settings.errors.${kinds[name] ?? "required"}`;
}

// ---------------------------------------------------------------- outbox

export async function resendOutboxEmail(db: Db, args: { id: number; actorUserId: string; now?: Date }) {
  return db.transaction(async (tx) => {
    const result = await resendEmail(tx, args.id, { now: args.now });
    if (result.ok)
      await recordAudit(tx, {
        actorUserId: args.actorUserId,
        action: "mail.resend",
        entity: "mail",
        entityId: args.id,
        details: { queuedAs: result.id },
      });
    return result;
  });
}

// ---------------------------------------------------------------- exchange rates

export async function listExchangeRates(db: Db) {
  const rates = await getExchangeRates(db);
  return convertedCurrencies.map((currency) => ({
    currency,
    ratePerEur: rates[currency].ratePerEur,
    source: rates[currency].source,
    updatedAt: rates[currency].updatedAt?.toISOString() ?? null,
  }));
}

/** "1,0825" or "1.0825" -> 1.0825; only plain decimals with up to 6 places. */
export function parseRate(raw: string): number | null {
  const match = /^\s*(\d{1,6})(?:[.,](\d{1,6}))?\s*$/.exec(raw);
  if (!match) return null;
  const rate = Number(`${match[1]}.${match[2] ?? "0"}`);
  return isUsableRate(rate) ? rate : null;
}

export async function setExchangeRate(
  db: Db,
  args: { currency: string; rate: string; actorUserId: string },
): Promise<{ ok: true } | { ok: false; error: "admin.rates.errors.rate" | "admin.rates.errors.currency" }> {
  if (!isConvertedCurrency(args.currency)) return { ok: false, error: "admin.rates.errors.currency" };
  const ratePerEur = parseRate(args.rate);
  if (ratePerEur === null) return { ok: false, error: "admin.rates.errors.rate" };
  const currency: ConvertedCurrency = args.currency;
  await db.transaction(async (tx) => {
    await overrideExchangeRate(tx, { currency, ratePerEur });
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "rates.override",
      entity: "exchange-rate",
      entityId: currency,
      details: { ratePerEur },
    });
  });
  return { ok: true };
}

export async function clearExchangeRate(
  db: Db,
  args: { currency: string; actorUserId: string },
): Promise<{ ok: true } | { ok: false; error: "admin.rates.errors.currency" }> {
  if (!isConvertedCurrency(args.currency)) return { ok: false, error: "admin.rates.errors.currency" };
  const currency: ConvertedCurrency = args.currency;
  await db.transaction(async (tx) => {
    await clearExchangeRateOverride(tx, currency);
    await recordAudit(tx, { actorUserId: args.actorUserId, action: "rates.clear-override", entity: "exchange-rate", entityId: currency });
  });
  return { ok: true };
}

/** Fetches the rates now (RATES_URL); without a URL there is nothing to fetch. */
export async function refreshRatesNow(db: Db, args: { url: string | undefined; actorUserId: string; fetch?: typeof globalThis.fetch }) {
  if (!args.url) return { ok: false as const, error: "admin.rates.errors.noUrl" };
  const result = await refreshExchangeRates(db, { url: args.url, fetch: args.fetch });
  await recordAudit(db, {
    actorUserId: args.actorUserId,
    action: "rates.refresh",
    entity: "exchange-rate",
    entityId: null,
    details: result.ok ? { updated: result.updated, keptManual: result.keptManual } : { error: result.error },
  });
  return result.ok
    ? { ok: true as const, updated: result.updated, keptManual: result.keptManual }
    : { ok: false as const, error: `admin.rates.errors.${result.error}` };
}
