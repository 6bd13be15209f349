import { z } from "zod";

/**
 * The contact form as it arrives from outside. Every message is a key of messages/{it,en}.json
 * (`contact.errors.*`), translated by the page: the code is also the message key.
 */
export const contactLimits = { name: 100, email: 254, phone: 20, subject: 150, messageMin: 10, message: 5000 } as const;

/** Control characters (NUL included); single-line fields also refuse line breaks. */
const controlChars = /[\u0000-\u001F\u007F]/;
const controlCharsExceptLineBreaks = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Tags like <b>, </a>, <script ...>, <!-- : the shop's mailbox gets plain text only. */
const markup = /<\s*[/!?]?\s*[a-z][^>]*>|<!--/i;

const error = (code: string) => `contact.errors.${code}`;

function plainText({ required, max, tooLong, multiline = false }: { required: string; max: number; tooLong: string; multiline?: boolean }) {
  return z
    .string({ error: error(required) })
    .trim()
    .min(1, error(required))
    .max(max, error(tooLong))
    .refine((value) => !(multiline ? controlCharsExceptLineBreaks : controlChars).test(value), error("invalidCharacters"))
    .refine((value) => !markup.test(value), error("noHtml"));
}

export const ContactMessageInput = z.object({
  name: plainText({ required: "nameRequired", max: contactLimits.name, tooLong: "nameTooLong" }),
  email: z
    .string({ error: error("emailRequired") })
    .trim()
    .min(1, error("emailRequired"))
    .max(contactLimits.email, error("emailInvalid"))
    .pipe(z.email({ error: error("emailInvalid") })),
  phone: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .pipe(
      z
        .string()
        .max(contactLimits.phone, error("phoneInvalid"))
        .regex(/^\+?[0-9][0-9 ./()-]{5,}$/, error("phoneInvalid"))
        .optional(),
    ),
  subject: plainText({ required: "subjectRequired", max: contactLimits.subject, tooLong: "subjectTooLong" }),
  message: plainText({ required: "messageRequired", max: contactLimits.message, tooLong: "messageTooLong", multiline: true }).refine(
    (value) => value.length >= contactLimits.messageMin,
    error("messageTooShort"),
  ),
  privacy: z.literal("on", { error: error("privacyRequired") }),
});
export type ContactMessageInput = z.infer<typeof ContactMessageInput>;

export type ContactField = keyof ContactMessageInput;
/** Field -> message key of its first problem. */
export type ContactErrors = Partial<Record<ContactField, string>>;

export function parseContactMessage(raw: unknown): { ok: true; value: ContactMessageInput } | { ok: false; errors: ContactErrors } {
  const parsed = ContactMessageInput.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: ContactErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as ContactField;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
