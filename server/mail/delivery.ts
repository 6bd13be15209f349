/**
 * Pure rules of mail delivery (no db, env, clock or network): how long to wait before the next
 * attempt, how long a claimed mail may stay "sending", and which failures are final.
 */

/** First retry after a minute, then 2, 4, 8 ... minutes, never more than 6 hours apart. */
export const firstRetryDelayMs = 60_000;
export const maxRetryDelayMs = 6 * 60 * 60_000;

/**
 * A process claims a mail for this long. One killed mid-send leaves the mail "sending"; once the
 * lease is over another run puts it back in the queue. Far longer than any SMTP timeout.
 */
export const sendingLeaseMs = 10 * 60_000;

/** Delay before the next attempt after `attempts` failed ones (1 -> 1 min, 2 -> 2 min, ...). */
export function retryDelayMs(attempts: number): number {
  const exponent = Math.max(0, attempts - 1);
  // 2^30 minutes is far past the cap; stop doubling before the number grows meaningless.
  if (exponent >= 30) return maxRetryDelayMs;
  return Math.min(firstRetryDelayMs * 2 ** exponent, maxRetryDelayMs);
}

export function nextAttemptAfterFailure(now: Date, attempts: number): Date {
  return new Date(now.getTime() + retryDelayMs(attempts));
}

/**
 * What a mailer throws when a message did not go out. `permanent` is true only when the receiving
 * server refused the recipient with a 5xx reply: retrying cannot help, so the mail is marked failed.
 * Everything else (server down, timeouts, 4xx, login refused) is retried.
 */
export class MailSendError extends Error {
  override name = "MailSendError";
  readonly permanent: boolean;

  constructor(message: string, options: { permanent: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.permanent = options.permanent;
  }
}

export function isPermanentFailure(error: unknown): boolean {
  return error instanceof MailSendError && error.permanent;
}

/** The text kept in `last_error`: one line, bounded, never a stack trace. */
export function describeSendError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const oneLine = message.replace(/\s+/g, " ").trim() || "unknown error";
  return oneLine.length > 500 ? `${oneLine.slice(0, 499)}…` : oneLine;
}
