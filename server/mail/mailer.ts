/**
 * The only file that imports nodemailer. With SMTP_URL set the shop sends over SMTP; without it
 * there is no mailer and mail stays in the outbox, visible in the back office (docs/rules.md#checkout).
 */
import type { Transporter } from "nodemailer";
import type { Env } from "#server/env.ts";
import { MailSendError } from "./delivery";

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  headers?: Record<string, string> | null;
  /**
   * A key unique to this mail (e.g. "outbox-42-1767225600000"); it becomes the Message-ID's left part,
   * so a receiver can recognise the same mail sent again after an interrupted attempt.
   */
  messageKey?: string;
};

export type Mailer = {
  /** Resolves once the SMTP server accepted the message; throws MailSendError otherwise. */
  send: (message: OutgoingMail) => Promise<void>;
  close: () => void;
};

/** Connection, greeting and idle-socket limits: a stuck server must not hold the job for minutes. */
export const smtpTimeoutMs = 10_000;

export function createMailer(env: Pick<Env, "SMTP_URL" | "MAIL_FROM">): Mailer | null {
  const url = env.SMTP_URL;
  if (!url) return null;
  // nodemailer is loaded with the first mail to send: a process that sends none does not hold it (decision 0075).
  let opening: Promise<Transporter> | undefined;
  const transportNow = () =>
    (opening ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport(
        { url, connectionTimeout: smtpTimeoutMs, greetingTimeout: smtpTimeoutMs, socketTimeout: smtpTimeoutMs, dnsTimeout: smtpTimeoutMs },
        { from: env.MAIL_FROM },
      ),
    ));
  const domain = /@([^>\s]+)>?\s*$/.exec(env.MAIL_FROM)?.[1] ?? "localhost";
  return {
    send: async (message) => {
      try {
        const transport = await transportNow();
        await transport.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
          ...(message.headers ? { headers: message.headers } : {}),
          ...(message.messageKey ? { messageId: `<${message.messageKey}@${domain}>` } : {}),
        });
      } catch (error) {
        throw new MailSendError(errorMessage(error), { permanent: isRecipientRejected(error), cause: error });
      }
    },
    close: () => void opening?.then((transport) => transport.close()),
  };
}

type SmtpError = { code?: string; command?: string; responseCode?: number; message?: string };

/** The receiving server refused the recipient for good (RCPT TO answered 5xx, e.g. 550 no such user). */
function isRecipientRejected(error: unknown): boolean {
  const smtp = error as SmtpError;
  return smtp?.code === "EENVELOPE" && smtp.command === "RCPT TO" && typeof smtp.responseCode === "number" && smtp.responseCode >= 500;
}

function errorMessage(error: unknown): string {
  const smtp = error as SmtpError;
  const message = smtp?.message ?? String(error);
  return smtp?.code && !message.includes(smtp.code) ? `${smtp.code}: ${message}` : message;
}
