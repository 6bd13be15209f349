/**
 * Pure rules of sending invoices to the Sistema di Interscambio (docs/decisions/0091-sdi-intermediary.md):
 * what each SDI notification means for a file, what the staff do about each error code, and the
 * deadlines (12 days to transmit from the operation, 5 days to resend a rejected file under the same
 * number and date). No db, env, clock or network.
 */
import { addDays } from "#common/shop-calendar.ts";

export type SdiTransmissionStatus = "queued" | "sending" | "sent" | "delivered" | "not_delivered" | "rejected" | "refused";
export type SdiError = { code: string; description: string };

/** Art. 21 c. 4 DPR 633/72: an immediate invoice is transmitted within 12 days of the operation. */
export const transmitWithinDays = 12;
/**
 * Circolare AdE 14/E 2019 (§ 3.1): a file the SDI rejects is considered never issued; corrected and
 * sent again within 5 days of the rejection it keeps its number and date.
 */
export const resendWithinDays = 5;

/** The statuses in which a file is still on its way: no second file for the invoice meanwhile. */
export const openStatuses: readonly SdiTransmissionStatus[] = ["queued", "sending", "sent"];

/**
 * What a notification of the SDI settles: RC the file was delivered, MC it could not be delivered but
 * is valid (the buyer finds it in their tax drawer), NS it was rejected. Others (MT, EC, NE, DT, AT:
 * public administrations' outcomes) change nothing for a shop that sells to private buyers and companies.
 */
export function outcomeOfNotification(type: string): "delivered" | "not_delivered" | "rejected" | null {
  if (type === "RC") return "delivered";
  if (type === "MC") return "not_delivered";
  if (type === "NS") return "rejected";
  return null;
}

/** What the staff do about a rejection, by the SDI's error code (the keys of `sdi.advice` in messages/). */
export type SdiAdvice = "buyer-vat-number" | "buyer-fiscal-code" | "recipient-code" | "duplicate" | "seller-data" | "resend" | "support";

const adviceByCode: Record<string, SdiAdvice> = {
  // The file's name was already used: the intermediary names each new file, so sending again is enough.
  "00002": "resend",
  // IdFiscaleIVA / CodiceFiscale of the seller unknown to the tax register.
  "00300": "seller-data",
  "00301": "seller-data",
  "00303": "seller-data",
  // The buyer's partita IVA or codice fiscale unknown to the tax register.
  "00305": "buyer-vat-number",
  "00306": "buyer-fiscal-code",
  // CodiceDestinatario unknown, or not active.
  "00311": "recipient-code",
  "00312": "recipient-code",
  // The same invoice (seller, number, date, type) already reached the SDI.
  "00404": "duplicate",
  "00409": "duplicate",
};

export function adviceOfError(code: string): SdiAdvice {
  return adviceByCode[code] ?? "support";
}

/** The distinct pieces of advice of a rejection's errors, in the order of the errors. */
export function adviceOfErrors(errors: readonly SdiError[]): SdiAdvice[] {
  return [...new Set(errors.map((error) => adviceOfError(error.code)))];
}

/** The last day to transmit the invoice of an operation made on `operationDay` ("YYYY-MM-DD", Italy). */
export function transmitBy(operationDay: string): string {
  return addDays(operationDay, transmitWithinDays);
}

/** The last day to resend, under the same number and date, a file rejected on `rejectedDay`. */
export function resendBy(rejectedDay: string): string {
  return addDays(rejectedDay, resendWithinDays);
}

/** Whether a rejected (or refused) file may still go again under its number and date on `today`. */
export function mayResend(status: SdiTransmissionStatus, rejectedDay: string | null, today: string): boolean {
  if (status === "refused") return true;
  return status === "rejected" && rejectedDay !== null && today <= resendBy(rejectedDay);
}
