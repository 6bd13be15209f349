/** An Italian delivery address as it arrives from the /my-account form (docs/rules.md#checkout). */
import { z } from "zod";
import { optionalPhone } from "./profile.inputs";
import { errorKey, optionalTextLine, personNameChars, textLine } from "./text-rules";

export const addressLimits = { label: 50, firstName: 100, lastName: 100, street: 200, houseNumber: 20, city: 100, phone: 20 } as const;

/** A customer keeps at most this many addresses. */
export const maxAddressesPerUser = 20;

/** Sigle of the Italian provinces (and the Sardinian ones restored in 2025). */
export const italianProvinces = new Set(
  (
    "AG AL AN AO AP AQ AR AT AV BA BG BI BL BN BO BR BS BT BZ CA CB CE CH CI CL CN CO CR CS CT CZ EN FC FE FG FI FM FR GE GO GR " +
    "IM IS KR LC LE LI LO LT LU MB MC ME MI MN MO MS MT NA NO NU OG OR OT PA PC PD PE PG PI PN PO PR PT PU PV PZ RA RC RE RG RI " +
    "RM RN RO SA SI SO SP SR SS SU SV TA TE TN TO TP TR TS TV UD VA VB VC VE VI VR VS VT VV"
  ).split(" "),
);

/** Street names: letters, digits, spaces and the punctuation of Italian addresses (Via dell'Orto, 2° vico). */
const streetChars = /^[\p{L}\p{M}0-9][\p{L}\p{M}0-9' .,°º/()\u2019-]*$/u;
/** 12, 12/B, 12 bis, SNC (senza numero civico). */
const houseNumberChars = /^[0-9A-Za-z][0-9A-Za-z /-]*$/;
const cityChars = /^[\p{L}\p{M}][\p{L}\p{M}' .\u2019-]*$/u;
const labelChars = /^[\p{L}\p{M}0-9][\p{L}\p{M}0-9' .,()&\u2019-]*$/u;

export const AddressInput = z.object({
  label: optionalTextLine({ max: addressLimits.label, allowed: labelChars, invalid: "labelInvalid" }),
  firstName: textLine({ required: "firstNameRequired", max: addressLimits.firstName, allowed: personNameChars, invalid: "nameInvalid" }),
  lastName: textLine({ required: "lastNameRequired", max: addressLimits.lastName, allowed: personNameChars, invalid: "nameInvalid" }),
  street: textLine({ required: "streetRequired", max: addressLimits.street, allowed: streetChars, invalid: "streetInvalid" }),
  houseNumber: textLine({
    required: "houseNumberRequired",
    max: addressLimits.houseNumber,
    allowed: houseNumberChars,
    invalid: "houseNumberInvalid",
  }),
  postcode: z
    .string({ error: errorKey("postcodeRequired") })
    .trim()
    .min(1, errorKey("postcodeRequired"))
    .regex(/^[0-9]{5}$/, errorKey("postcodeInvalid")),
  city: textLine({ required: "cityRequired", max: addressLimits.city, allowed: cityChars, invalid: "cityInvalid" }),
  province: z
    .string({ error: errorKey("provinceRequired") })
    .trim()
    .min(1, errorKey("provinceRequired"))
    .regex(/^[A-Za-z]{2}$/, errorKey("provinceInvalid"))
    .transform((value) => value.toUpperCase())
    .refine((value) => italianProvinces.has(value), errorKey("provinceInvalid")),
  phone: optionalPhone(),
  isDefault: z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean()),
});
export type AddressInput = z.infer<typeof AddressInput>;

export const AddressId = z.coerce.number().int().positive().max(2_147_483_647);
