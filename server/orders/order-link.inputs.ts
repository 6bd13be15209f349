import { z } from "zod";

/**
 * "Find my order": the order number as the mails print it ("1234", also "n. 1234" or "#1234") and the
 * e-mail the order was placed with. Error messages are keys of messages/*.json (orderLookup.errors.*).
 */
export const OrderLinkRequest = z.object({
  orderNumber: z
    .string({ error: "orderLookup.errors.orderNumber" })
    .trim()
    .transform((value) => value.replace(/^(n\.?|#)\s*/i, ""))
    .pipe(z.string().regex(/^\d{1,9}$/, { error: "orderLookup.errors.orderNumber" }))
    .transform(Number),
  email: z
    .string({ error: "orderLookup.errors.email" })
    .trim()
    .max(254, { error: "orderLookup.errors.email" })
    .pipe(z.email({ error: "orderLookup.errors.email" })),
});
export type OrderLinkRequest = z.infer<typeof OrderLinkRequest>;
