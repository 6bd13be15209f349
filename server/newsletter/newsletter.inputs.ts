import { z } from "zod";

/** Every message is a key of messages/{it,en}.json (`newsletter.errors.*`): the code is also the message key. */
const error = (code: string) => `newsletter.errors.${code}`;

/** The footer's sign-up: one address. Consent is the text shown beside the field, confirmed by the mail's link. */
export const NewsletterSignUpInput = z.object({
  email: z
    .string({ error: error("emailRequired") })
    .trim()
    .min(1, error("emailRequired"))
    .max(254, error("emailInvalid"))
    .pipe(z.email({ error: error("emailInvalid") }))
    .transform((email) => email.toLowerCase()),
});
export type NewsletterSignUpInput = z.infer<typeof NewsletterSignUpInput>;

/** The token of a confirmation or unsubscribe link: 32 random bytes, base64url. */
export const NewsletterToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
