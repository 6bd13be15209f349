/**
 * The signed-in customer's profile and addresses (docs/rules.md#http-api: setInfo, modifyInfo, addaddress,
 * updateaddress, deleteaddress, setInfoEmail, getAllinformation), on the services the /my-account page
 * uses: their rules (names, Italian postcodes and provinces, fiscal codes, one default address) are
 * theirs; the schemas here only give the payload its shape and its documentation.
 */
import { z } from "zod";
import { addressLimits } from "#server/accounts/address.inputs.ts";
import { addAddress, deleteAddress, getAddress, listAddresses, updateAddress, type Address } from "#server/accounts/address.service.ts";
import { profileLimits } from "#server/accounts/profile.inputs.ts";
import { getAccountProfile, updateProfile, type AccountProfile } from "#server/accounts/profile.service.ts";
import type { Db } from "#server/db/client.ts";
import type { Locale } from "#common/locale.ts";
import { apiFailure, translateFieldErrors } from "./api-http";
import { apiRoute, type ApiOutcome } from "./api-route";

const Info = z
  .object({
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    phone: z.string().nullable(),
    fiscalCode: z.string().nullable(),
    /** False for accounts that only sign in with the external provider. */
    hasPassword: z.boolean(),
  })
  .meta({ id: "Info" });

const ApiAddress = z
  .object({
    id: z.number().int(),
    label: z.string().nullable(),
    firstName: z.string(),
    lastName: z.string(),
    street: z.string(),
    houseNumber: z.string(),
    postcode: z.string(),
    city: z.string(),
    province: z.string(),
    phone: z.string().nullable(),
    isDefault: z.boolean(),
  })
  .meta({ id: "Address" });

const optionalText = (max: number) => z.string().max(max).nullable().optional();

const infoFields = {
  name: z.string().max(profileLimits.name),
  phone: optionalText(profileLimits.phone),
  fiscalCode: optionalText(profileLimits.fiscalCode),
};

const addressFields = {
  label: optionalText(addressLimits.label),
  firstName: z.string().max(addressLimits.firstName),
  lastName: z.string().max(addressLimits.lastName),
  street: z.string().max(addressLimits.street),
  houseNumber: z.string().max(addressLimits.houseNumber),
  /** Five digits. */
  postcode: z.string().max(5),
  /** The province's two letters (NA, RM...). */
  province: z.string().max(2),
  city: z.string().max(addressLimits.city),
  phone: optionalText(addressLimits.phone),
  /** Make it the default address (the first address always is). */
  isDefault: z.boolean().optional(),
};

const AddressId = z.number().int().positive().max(2_147_483_647);

function toInfo(profile: AccountProfile): z.input<typeof Info> {
  const { name, email, emailVerified, phone, fiscalCode, hasPassword } = profile;
  return { name, email, emailVerified, phone, fiscalCode, hasPassword };
}

function toApiAddress(address: Address): z.input<typeof ApiAddress> {
  const { id, label, firstName, lastName, street, houseNumber, postcode, city, province, phone, isDefault } = address;
  return { id, label, firstName, lastName, street, houseNumber, postcode, city, province, phone, isDefault };
}

async function saveInfo(db: Db, userId: string, values: Record<string, unknown>, locale: Locale): Promise<ApiOutcome<z.input<typeof Info>>> {
  const saved = await updateProfile(db, userId, values);
  if (!saved.ok) return apiFailure(400, "invalid-input", translateFieldErrors(saved.errors, locale));
  const profile = await getAccountProfile(db, userId);
  return profile ? { ok: true, data: toInfo(profile) } : apiFailure(404, "not-found");
}

type AddressSaved = Awaited<ReturnType<typeof addAddress>>;

async function answerAddress(db: Db, userId: string, result: AddressSaved, locale: Locale): Promise<ApiOutcome<z.input<typeof ApiAddress>>> {
  if (!result.ok)
    return "notFound" in result ? apiFailure(404, "not-found") : apiFailure(400, "invalid-input", translateFieldErrors(result.errors, locale));
  const address = await getAddress(db, userId, result.id);
  return address ? { ok: true, data: toApiAddress(address) } : apiFailure(404, "not-found");
}

const setInfo = apiRoute({
  method: "POST",
  path: "/api/setInfo",
  auth: "user",
  summary: "Sets the profile (name, phone, fiscal code): fields left out are emptied. Answers the saved profile.",
  body: z.strictObject(infoFields),
  response: Info,
  handler: ({ services, user, body, locale }) => saveInfo(services.db, user.id, body, locale),
});

const modifyInfo = apiRoute({
  method: "POST",
  path: "/api/modifyInfo",
  auth: "user",
  summary: "Changes only the profile fields sent; the others keep their value. Answers the saved profile.",
  body: z.strictObject({ name: infoFields.name.optional(), phone: infoFields.phone, fiscalCode: infoFields.fiscalCode }),
  response: Info,
  handler: async ({ services, user, body, locale }) => {
    const current = await getAccountProfile(services.db, user.id);
    if (!current) return apiFailure(404, "not-found");
    const { name, phone, fiscalCode } = current;
    const defined = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    return saveInfo(services.db, user.id, { name, phone, fiscalCode, ...defined }, locale);
  },
});

const setInfoEmail = apiRoute({
  method: "GET",
  path: "/api/setInfoEmail",
  auth: "user",
  summary: "The account's e-mail address and whether it is confirmed (changing it goes through the confirmation e-mail of /my-account).",
  response: z.object({ email: z.string(), emailVerified: z.boolean() }),
  handler: async ({ user }) => ({ ok: true, data: { email: user.email, emailVerified: user.emailVerified } }),
});

const getAllinformation = apiRoute({
  method: "GET",
  path: "/api/getAllinformation",
  auth: "user",
  summary: "The profile and every address, the default address first.",
  response: z.object({ info: Info, addresses: z.array(ApiAddress) }),
  handler: async ({ services, user }) => {
    const [profile, addressRows] = await Promise.all([getAccountProfile(services.db, user.id), listAddresses(services.db, user.id)]);
    if (!profile) return apiFailure(404, "not-found");
    return { ok: true, data: { info: toInfo(profile), addresses: addressRows.map(toApiAddress) } };
  },
});

const addaddress = apiRoute({
  method: "POST",
  path: "/api/addaddress",
  auth: "user",
  summary: "Adds a delivery address in Italy (at most 20). Answers the saved address with its id.",
  body: z.strictObject(addressFields),
  response: ApiAddress,
  handler: async ({ services, user, body, locale }) => answerAddress(services.db, user.id, await addAddress(services.db, user.id, body), locale),
});

const updateaddress = apiRoute({
  method: "POST",
  path: "/api/updateaddress",
  auth: "user",
  summary: "Replaces one of the caller's addresses (by id). Another customer's address is 404 and nothing changes.",
  errors: [404],
  body: z.strictObject({ id: AddressId, ...addressFields }),
  response: ApiAddress,
  handler: async ({ services, user, body, locale }) => {
    const { id, ...fields } = body;
    return answerAddress(services.db, user.id, await updateAddress(services.db, user.id, id, fields), locale);
  },
});

const deleteaddress = apiRoute({
  method: "POST",
  path: "/api/deleteaddress",
  auth: "user",
  summary: "Deletes one of the caller's addresses (by id); the oldest remaining one becomes the default. Another customer's address is 404.",
  errors: [404],
  body: z.strictObject({ id: AddressId }),
  response: z.object({ deleted: z.number().int() }),
  handler: async ({ services, user, body }) => {
    const result = await deleteAddress(services.db, user.id, body.id);
    return result.ok ? { ok: true, data: { deleted: result.id } } : apiFailure(404, "not-found");
  },
});

export const accountEndpoints = [setInfo, modifyInfo, addaddress, updateaddress, deleteaddress, setInfoEmail, getAllinformation];
