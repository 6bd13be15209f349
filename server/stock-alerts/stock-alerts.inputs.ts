import { z } from "zod";

/** Every message is a key of messages/{it,en}.json (`stockAlerts.errors.*`): the code is also the message key. */
const error = (code: string) => `stockAlerts.errors.${code}`;

/** The product page's request: the colour and size chosen, and a guest's address (a signed-in customer's comes from the session). */
export const StockAlertRequestInput = z.object({
  variantId: z.coerce
    .number({ error: error("variantMissing") })
    .int(error("variantMissing"))
    .positive(error("variantMissing"))
    .max(2 ** 31 - 1, error("variantMissing")),
  email: z
    .string({ error: error("emailRequired") })
    .trim()
    .min(1, error("emailRequired"))
    .max(254, error("emailInvalid"))
    .pipe(z.email({ error: error("emailInvalid") }))
    .transform((email) => email.toLowerCase())
    .optional(),
});
export type StockAlertRequestInput = z.infer<typeof StockAlertRequestInput>;

/** The token of a confirmation or unsubscribe link: 32 random bytes, base64url. */
export const StockAlertToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
