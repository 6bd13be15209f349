import { z } from "zod";
import { isValidBusinessFiscalCode, isValidVatNumber } from "#server/invoices/fiscal-codes.ts";
import { defaultValidityMonths, giftCardLimits } from "#server/gift-cards/gift-card.ts";
import { trackingPlaceholder } from "#common/carrier-tracking.ts";
import type { OnlineMethodSetting, OnlinePaymentMethod } from "#common/online-payment-methods.ts";

/**
 * The shapes of the shop's editable settings (table shop_settings, one JSON value per key).
 * Pure: no db. The back office edits them; pages read them through settings.service.ts.
 */
const timeOfDay = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/);
const openingSlot = z.object({ opens: timeOfDay, closes: timeOfDay });

/** Opening hours per ISO weekday (1 = Monday ... 7 = Sunday); an empty list means closed. */
export const OpeningHours = z.object({
  1: z.array(openingSlot),
  2: z.array(openingSlot),
  3: z.array(openingSlot),
  4: z.array(openingSlot),
  5: z.array(openingSlot),
  6: z.array(openingSlot),
  7: z.array(openingSlot),
});
export type OpeningHours = z.infer<typeof OpeningHours>;

export const ShopIdentity = z.object({
  name: z.string().min(1),
  legalName: z.string().min(1),
  vatNumber: z.string().min(1),
  street: z.string().min(1),
  postcode: z.string().regex(/^[0-9]{5}$/),
  city: z.string().min(1),
  province: z.string().regex(/^[A-Z]{2}$/),
  phone: z.string().min(1),
  /** International format without "+" or spaces, as wa.me links want it. */
  whatsapp: z.string().regex(/^[0-9]{8,15}$/),
  email: z.email(),
  facebookUrl: z.url().nullable(),
  instagramUrl: z.url().nullable(),
  openingHours: OpeningHours,
});
export type ShopIdentity = z.infer<typeof ShopIdentity>;

export const DeliverySettings = z.object({
  /** Postcodes of the shop's own town: free home delivery there. */
  localPostcodes: z.array(z.string().regex(/^[0-9]{5}$/)),
  standardFeeCents: z.number().int().min(0),
  cashOnDeliveryFeeCents: z.number().int().min(0),
});
export type DeliverySettings = z.infer<typeof DeliverySettings>;

const dayCount = z.number().int().min(0).max(30);
const dayRange = z.object({ min: dayCount, max: dayCount }).refine((range) => range.min <= range.max, "the first number is the smaller");
const calendarDay = z.iso.date();

/**
 * What the delivery promise is computed from (server/checkout/delivery-estimate.ts): an order placed
 * after `cutoff` starts the next working day; days count the shop's opening days (settings `shop`)
 * except the courier's, which count Monday to Friday; national holidays and `closures` never count.
 */
export const DeliveryTimesSettings = z.object({
  cutoff: timeOfDay,
  /** Working days between the order's start and the parcel leaving the shop (0: the same day). */
  preparationDays: dayCount,
  /** Courier days after the parcel leaves, anywhere in Italy. */
  standardDays: dayRange,
  /** The shop's own delivery in its town, in opening days after the parcel is ready. */
  localDeliveryDays: dayRange,
  /** Opening days after the parcel is ready until it can be collected in the shop. */
  collectionDays: dayCount,
  /** The shop's own closures (holidays, stock-taking), from and to included. */
  closures: z
    .array(z.object({ from: calendarDay, to: calendarDay }).refine((closure) => closure.from <= closure.to, "the closure ends after it starts"))
    .max(100),
});
export type DeliveryTimesSettings = z.infer<typeof DeliveryTimesSettings>;

export const BankTransferSettings = z.object({
  iban: z.string().regex(/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/),
  beneficiary: z.string().min(1),
  bankName: z.string().min(1),
  daysToPay: z.number().int().min(1).max(30),
});
export type BankTransferSettings = z.infer<typeof BankTransferSettings>;

export const GiftListCompletionSettings = z.object({
  percent: z.number().int().min(0).max(50),
  windowDays: z.number().int().min(1).max(365),
});

export const NewsletterSettings = z.object({
  /** An external mailing-list form for the footer's sign-up to post to; null: the shop's own list (server/newsletter/). */
  url: z.url().nullable(),
});

/** An origin as browsers send it: scheme, host and port, no path ("https://app.example.it"). */
const webOrigin = z.url().refine((value) => URL.parse(value)?.origin === value, "an origin has no path or trailing slash");

export const ApiSettings = z.object({
  /** Web origins whose pages may call /api from the browser (CORS); the shop's own is always allowed. */
  allowedOrigins: z.array(webOrigin).max(50),
});
export type ApiSettings = z.infer<typeof ApiSettings>;

/** Regimi fiscali of the FatturaPA specification (RF03 was withdrawn). */
export const regimiFiscali = [
  "RF01",
  "RF02",
  "RF04",
  "RF05",
  "RF06",
  "RF07",
  "RF08",
  "RF09",
  "RF10",
  "RF11",
  "RF12",
  "RF13",
  "RF14",
  "RF15",
  "RF16",
  "RF17",
  "RF18",
  "RF19",
] as const;

/** The seller's data on every invoice (FatturaPA CedentePrestatore); REA office and number go together. */
export const FiscalSettings = z
  .object({
    denomination: z.string().min(1).max(80),
    vatNumber: z.string().refine(isValidVatNumber),
    fiscalCode: z.string().refine(isValidBusinessFiscalCode),
    street: z.string().min(1).max(60),
    houseNumber: z.string().max(8).nullable(),
    postcode: z.string().regex(/^[0-9]{5}$/),
    city: z.string().min(1).max(60),
    province: z.string().regex(/^[A-Z]{2}$/),
    regimeFiscale: z.enum(regimiFiscali),
    reaOffice: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .nullable(),
    reaNumber: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,20}$/)
      .nullable(),
  })
  .refine((value) => (value.reaOffice === null) === (value.reaNumber === null), {
    path: ["reaNumber"],
    // Checked with the other fields' problems too, so that every message shows at once.
    when: (payload) => typeof payload.value === "object" && payload.value !== null,
  });
export type FiscalSettings = z.infer<typeof FiscalSettings>;
/**
 * The consumer's right of withdrawal and the returns it brings (docs/decisions/0051-withdrawal-period.md):
 * how many days, from which event, and the return instructions mailed when a return is authorised.
 */
export const AfterSalesSettings = z.object({
  withdrawalDays: z.number().int().min(14).max(90),
  /** Home deliveries: from the day the order is marked delivered (completed), or from its shipment. */
  homeDeliveryStart: z.enum(["delivered", "shipped"]),
  /** Collection in the shop: from the order, or from the day it is collected (completed). */
  collectionStart: z.enum(["ordered", "collected"]),
  returnInstructionsIt: z.string().trim().min(1).max(2000),
  returnInstructionsEn: z.string().trim().min(1).max(2000),
});
export type AfterSalesSettings = z.infer<typeof AfterSalesSettings>;

/**
 * The loyalty card (docs/decisions/0099-loyalty-card.md): points per euro of goods paid online or at the
 * till, redeemed in steps (`stepPoints` points take `stepCents` off), expiring `expiryMonths` after they
 * were earned; the statement mail goes `noticeDays` before. Products of `excludedKinds` earn nothing.
 */
export const LoyaltySettings = z.object({
  pointsPerEuro: z.number().int().min(0).max(100),
  stepPoints: z.number().int().min(1).max(100_000),
  stepCents: z.number().int().min(1).max(100_000),
  expiryMonths: z.number().int().min(1).max(120),
  noticeDays: z.number().int().min(1).max(90),
  excludedKinds: z.array(z.string().regex(/^[a-z][a-z-]{0,39}$/)).max(20),
});
export type LoyaltySettings = z.infer<typeof LoyaltySettings>;

/** A courier's tracking page: https, with {tracking} where the parcel's number goes. */
const trackingTemplate = z
  .url({ protocol: /^https$/ })
  .max(500)
  .refine((value) => value.includes(trackingPlaceholder), "the template has the {tracking} placeholder");

/** Where the shipped mail and the order page send the customer to follow the parcel (common/carrier-tracking.ts). */
export const CarrierTrackingSettings = z.object({ brt: trackingTemplate, gls: trackingTemplate, poste: trackingTemplate, sda: trackingTemplate });
export type CarrierTrackingSettings = z.infer<typeof CarrierTrackingSettings>;
const onlineMethodLimit = z.number().int().min(50).max(10_000_000).nullable();
/** Stripe's smallest euro charge is 0,50 €; a maximum below the minimum would never offer the method. */
const OnlineMethodSettingSchema = z
  .object({ enabled: z.boolean(), minCents: onlineMethodLimit, maxCents: onlineMethodLimit })
  .refine((value) => value.minCents === null || value.maxCents === null || value.minCents <= value.maxCents, {
    path: ["maxCents"],
  }) satisfies z.ZodType<OnlineMethodSetting>;

/** Which ways to pay online Stripe Checkout offers, and for which order totals (docs/decisions/0065-online-payment-methods.md). */
export const OnlinePaymentsSettings = z.object({
  card: OnlineMethodSettingSchema,
  paypal: OnlineMethodSettingSchema,
  satispay: OnlineMethodSettingSchema,
  klarna: OnlineMethodSettingSchema,
  sepa_debit: OnlineMethodSettingSchema,
  // Added later: a shop's stored choices without it keep their other methods (it starts off).
  scalapay: OnlineMethodSettingSchema.default({ enabled: false, minCents: 500, maxCents: 200_000 }),
}) satisfies z.ZodType<Record<OnlinePaymentMethod, OnlineMethodSetting>>;
export type OnlinePaymentsSettings = z.infer<typeof OnlinePaymentsSettings>;

/**
 * When the invoice of a paid order whose customer asked for one is issued (docs/decisions/0091-sdi-intermediary.md):
 * by the staff's button only, on payment, or once the order is shipped or ready for collection.
 */
export const InvoicingSettings = z.object({ issueAt: z.enum(["manual", "payment", "shipping"]) });
export type InvoicingSettings = z.infer<typeof InvoicingSettings>;

/**
 * The mails that bring customers back (docs/decisions/0102-customer-mails-consent.md): the abandoned-cart
 * reminder after the cart has been idle this many hours, the review invitation this many days after delivery.
 */
export const CustomerMailsSettings = z.object({
  cartReminderEnabled: z.boolean(),
  cartReminderDelayHours: z.number().int().min(1).max(336),
  reviewInvitationEnabled: z.boolean(),
  reviewInvitationDays: z.number().int().min(1).max(60),
});
export type CustomerMailsSettings = z.infer<typeof CustomerMailsSettings>;

/**
 * Gift cards sold online (docs/decisions/0106-voucher-lines.md): the amounts offered, the range of a free amount
 * (within the cards' own 5-500 € limits) and how long a card bought online lasts.
 */
export const GiftCardSalesSettings = z
  .object({
    presetCents: z.array(z.number().int().min(500).max(50_000)).max(8),
    minCents: z.number().int().min(500).max(50_000),
    maxCents: z.number().int().min(500).max(50_000),
    validityMonths: z.number().int().min(12).max(120),
  })
  .refine((value) => value.minCents <= value.maxCents, { path: ["maxCents"] });
export type GiftCardSalesSettings = z.infer<typeof GiftCardSalesSettings>;

export const settingsSchemas = {
  shop: ShopIdentity,
  delivery: DeliverySettings,
  deliveryTimes: DeliveryTimesSettings,
  bankTransfer: BankTransferSettings,
  giftListCompletion: GiftListCompletionSettings,
  newsletter: NewsletterSettings,
  api: ApiSettings,
  fiscal: FiscalSettings,
  afterSales: AfterSalesSettings,
  tracking: CarrierTrackingSettings,
  onlinePayments: OnlinePaymentsSettings,
  invoicing: InvoicingSettings,
  customerMails: CustomerMailsSettings,
  loyalty: LoyaltySettings,
  giftCardSales: GiftCardSalesSettings,
} as const;

export type SettingsKey = keyof typeof settingsSchemas;
export type Settings = { [K in SettingsKey]: z.infer<(typeof settingsSchemas)[K]> };

const mondayToSaturday = [
  { opens: "09:30", closes: "13:00" },
  { opens: "16:30", closes: "20:00" },
];

/** Seeded on first start and used whenever a stored value is missing or unreadable. */
export const defaultSettings: Settings = {
  shop: {
    name: "Bimbi Felici",
    legalName: "Bimbi Felici di Esposito Anna & C. s.a.s.",
    vatNumber: "IT07412580636",
    street: "Via Nazionale delle Puglie, 112",
    postcode: "80013",
    city: "Casalnuovo di Napoli",
    province: "NA",
    phone: "+39 081 842 1234",
    whatsapp: "393331234567",
    email: "info@bimbifelici.example",
    facebookUrl: "https://www.facebook.com/bimbifelici.example",
    instagramUrl: "https://www.instagram.com/bimbifelici.example",
    openingHours: {
      1: mondayToSaturday,
      2: mondayToSaturday,
      3: mondayToSaturday,
      4: mondayToSaturday,
      5: mondayToSaturday,
      6: mondayToSaturday,
      7: [],
    },
  },
  delivery: { localPostcodes: ["80013"], standardFeeCents: 690, cashOnDeliveryFeeCents: 300 },
  deliveryTimes: {
    cutoff: "13:00",
    preparationDays: 0,
    standardDays: { min: 1, max: 2 },
    localDeliveryDays: { min: 1, max: 2 },
    collectionDays: 1,
    closures: [],
  },
  bankTransfer: {
    iban: "IT60X0542811101000000123456",
    beneficiary: "Bimbi Felici s.a.s.",
    bankName: "Banca di Esempio",
    daysToPay: 5,
  },
  giftListCompletion: { percent: 10, windowDays: 60 },
  newsletter: { url: null },
  api: { allowedOrigins: [] },
  fiscal: {
    denomination: "Bimbi Felici di Esposito Anna & C. s.a.s.",
    vatNumber: "07412580636",
    fiscalCode: "07412580636",
    street: "Via Nazionale delle Puglie",
    houseNumber: "112",
    postcode: "80013",
    city: "Casalnuovo di Napoli",
    province: "NA",
    regimeFiscale: "RF01",
    reaOffice: "NA",
    reaNumber: "912345",
  },
  // Card only: each other method must first be activated in the shop's Stripe dashboard.
  onlinePayments: {
    card: { enabled: true, minCents: null, maxCents: null },
    paypal: { enabled: false, minCents: null, maxCents: null },
    satispay: { enabled: false, minCents: null, maxCents: null },
    // Klarna's instalments in Italy: from 35 € to 4.000 €.
    klarna: { enabled: false, minCents: 3500, maxCents: 400_000 },
    sepa_debit: { enabled: false, minCents: null, maxCents: null },
    // Scalapay's pay in 3 in Italy: from 5 € to 2.000 € (docs/decisions/0104-scalapay.md).
    scalapay: { enabled: false, minCents: 500, maxCents: 200_000 },
  },
  invoicing: { issueAt: "manual" },
  customerMails: { cartReminderEnabled: true, cartReminderDelayHours: 24, reviewInvitationEnabled: true, reviewInvitationDays: 10 },
  giftCardSales: {
    presetCents: [2500, 5000, 10_000, 15_000],
    minCents: giftCardLimits.minCents,
    maxCents: giftCardLimits.maxCents,
    validityMonths: defaultValidityMonths,
  },
  loyalty: {
    pointsPerEuro: 1,
    stepPoints: 500,
    stepCents: 500,
    expiryMonths: 24,
    noticeDays: 30,
    excludedKinds: ["gift-card"],
  },
  afterSales: {
    withdrawalDays: 14,
    homeDeliveryStart: "delivered",
    collectionStart: "ordered",
    returnInstructionsIt:
      "Imballa gli articoli nella loro confezione originale e spediscili a Bimbi Felici, Via Nazionale delle Puglie 112, 80013 Casalnuovo di Napoli (NA), oppure portali in negozio. Scrivi il numero del reso sul pacco. Il costo della spedizione di ritorno è a tuo carico.",
    returnInstructionsEn:
      "Pack the items in their original packaging and send them to Bimbi Felici, Via Nazionale delle Puglie 112, 80013 Casalnuovo di Napoli (NA), Italy, or bring them to the shop. Write the return number on the parcel. The cost of sending them back is yours.",
  },
  // The couriers' public tracking pages as of 2026; the staff correct one here when a courier moves it.
  tracking: {
    brt: "https://vas.brt.it/vas/sped_det_show.hsm?referer=sped_numspe_par.htm&Nspediz={tracking}",
    gls: "https://www.gls-italy.com/?option=com_gls&view=track_e_trace&mode=search&numero_spedizione={tracking}&tipo_codice=nazionale",
    poste: "https://www.poste.it/cerca/index.html#/risultati-spedizioni/{tracking}",
    sda: "https://www.sda.it/wps/portal/Servizi_online/dettaglio-spedizione?locale=it&tracing.letteraVettura={tracking}",
  },
};
