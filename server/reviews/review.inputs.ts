/**
 * What arrives from the review form and the back office's moderation. Every message is a key under
 * `reviews.errors` (the code is also the message key); the page translates it with the field's limit.
 */
import { z } from "zod";
import { reviewLimits } from "#common/review-limits.ts";

/** C0 and C1 controls but tab, LF and CR (a text area sends them): the shared edge refuses them too. */
const controlInText = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

const key = (code: string) => `reviews.errors.${code}`;

/** Text as written: trimmed, line breaks kept, within `max`; `required` refuses a blank one. */
function writtenText({ max, min = 0, required }: { max: number; min?: number; required: string }) {
  return z
    .string({ error: key(required) })
    .trim()
    .refine((value) => value.length > 0, key(required))
    .refine((value) => value.length >= min, key("textTooShort"))
    .refine((value) => value.length <= max, key("tooLong"))
    .refine((value) => !controlInText.test(value), key("invalidCharacters"));
}

export const WriteReviewInput = z.object({
  stars: z.coerce
    .number({ error: key("stars") })
    .int(key("stars"))
    .min(1, key("stars"))
    .max(5, key("stars")),
  text: writtenText({ min: reviewLimits.textMin, max: reviewLimits.textMax, required: "textRequired" }),
});
export type WriteReviewInput = z.infer<typeof WriteReviewInput>;

const ReviewId = z.coerce
  .number({ error: key("notFound") })
  .int(key("notFound"))
  .positive(key("notFound"));

/** An optional reply: blank is none. */
const optionalReply = z
  .string()
  .optional()
  .transform((value) => value?.trim() ?? "")
  .pipe(z.union([z.literal(""), writtenText({ max: reviewLimits.replyMax, required: "replyRequired" })]))
  .transform((value) => value || null);

export const ModerateReviewInput = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("publish"), reviewId: ReviewId, reply: optionalReply }),
    z.object({ intent: z.literal("refuse"), reviewId: ReviewId, reason: writtenText({ max: reviewLimits.reasonMax, required: "reasonRequired" }) }),
    z.object({ intent: z.literal("reply"), reviewId: ReviewId, reply: optionalReply }),
  ],
  { error: key("notFound") },
);
export type ModerateReviewInput = z.infer<typeof ModerateReviewInput>;
