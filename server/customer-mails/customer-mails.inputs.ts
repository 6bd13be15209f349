import { z } from "zod";

/** The opt-out link's token: base64url address, a dot, base64url signature. */
export const CustomerMailsToken = z
  .string()
  .trim()
  .max(600)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/, "customerMails.errors.linkInvalid");

/** The account's choice: "on" when she agrees to the reminders and invitations, anything else objects. */
export const MailChoiceInput = z.object({ wantsMails: z.enum(["on", "off"]).catch("off") });
