/**
 * What arrives from outside about the SDI: the staff's correction of a rejected invoice's buyer, and the
 * intermediary's notification (A-Cube's `customer-notification` callback, docs/decisions/0091-sdi-intermediary.md).
 */
import { z } from "zod";
import { fiscalCode, pec, sdiCode, vatNumber } from "#server/checkout/checkout.inputs.ts";

/** A company buyer's tax identity as corrected by the staff; the SDI code or the PEC, or neither (tax drawer). */
export const CompanyBuyerCorrection = z.object({ vatNumber, sdiCode, pec });
export type CompanyBuyerCorrection = z.infer<typeof CompanyBuyerCorrection>;

/** A private buyer's codice fiscale as corrected by the staff. */
export const PrivateBuyerCorrection = z.object({ fiscalCode });
export type PrivateBuyerCorrection = z.infer<typeof PrivateBuyerCorrection>;

const text = z.string().trim().max(2000);
const errorEntry = z
  .object({
    codice: z.string().trim().min(1).max(20).optional(),
    Codice: z.string().trim().min(1).max(20).optional(),
    descrizione: text.optional(),
    Descrizione: text.optional(),
  })
  .transform((entry) => ({ code: entry.codice ?? entry.Codice ?? "", description: entry.descrizione ?? entry.Descrizione ?? "" }));

/**
 * The rejection's errors as the SDI's NotificaScarto lists them (ListaErrori/Errore), which A-Cube
 * passes on as JSON: a list, or an object whose `errore` is one entry or a list.
 */
const errorList = z.preprocess((value): unknown[] => {
  if (Array.isArray(value)) return value as unknown[];
  if (value && typeof value === "object") {
    const inner = (value as Record<string, unknown>).errore ?? (value as Record<string, unknown>).Errore;
    if (inner === undefined) return [];
    return Array.isArray(inner) ? (inner as unknown[]) : [inner];
  }
  return [];
}, z.array(errorEntry).max(100));

export const SdiNotificationPayload = z.object({
  notification: z.object({
    uuid: z.string().trim().min(1).max(100),
    invoice_uuid: z.string().trim().min(1).max(100),
    type: z
      .string()
      .trim()
      .regex(/^[A-Z]{2}$/),
    created_at: z.string().max(50).optional(),
    message: z
      .object({
        identificativo_sdi: z.union([z.string(), z.number()]).transform(String).optional(),
        lista_errori: errorList.optional(),
      })
      .loose()
      .optional(),
  }),
});
export type SdiNotificationPayload = z.infer<typeof SdiNotificationPayload>;
