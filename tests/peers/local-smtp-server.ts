/**
 * A real SMTP server on 127.0.0.1 for tests (never the network): it keeps every message it
 * receives and decodes its headers and text/HTML parts. Test-only: production code never imports it
 * (smtp-server is a devDependency).
 *
 *   const smtp = await startLocalSmtpServer();
 *   onTestFinished(() => smtp.close());
 *   createMailer({ SMTP_URL: smtp.url, MAIL_FROM: "Shop <shop@example.it>" });
 *
 * Recipients starting with "rejected@" get a permanent 550, "busy@" a temporary 450.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  envelopeTo: string[];
  headers: Record<string, string>;
  text: string | null;
  html: string | null;
  raw: string;
};

export type LocalSmtpServer = {
  port: number;
  url: string;
  received: ReceivedMail[];
  close: () => Promise<void>;
};

/** Starts on `port` (0: any free port); reuse the port of a closed one to bring it "back". */
export async function startLocalSmtpServer(port = 0): Promise<LocalSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 1000,
    onRcptTo(address, _session, callback) {
      const reply = (code: number, message: string) => callback(Object.assign(new Error(message), { responseCode: code }));
      if (address.address.startsWith("rejected@")) return reply(550, "5.1.1 No such user here");
      if (address.address.startsWith("busy@")) return reply(450, "4.2.1 Mailbox busy, try again later");
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, ...parseMessage(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.server.address() as AddressInfo).port;
  return {
    port: actualPort,
    url: `smtp://127.0.0.1:${actualPort}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (taken from the OS, then released). */
export async function findClosedPort(): Promise<number> {
  const smtp = await startLocalSmtpServer();
  await smtp.close();
  return smtp.port;
}

// ---------------------------------------------------------------- a small MIME reader (enough for nodemailer's output)

function splitHeadersAndBody(raw: string): [Record<string, string>, string] {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? "" : raw.slice(end).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeEncodedWords(line.slice(colon + 1).trim());
  }
  return [headers, body];
}

function decodeEncodedWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  const source = value.replace(/=\r?\n/g, "");
  for (let i = 0; i < source.length; i++) {
    const hex = source.slice(i + 1, i + 3);
    if (source[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(source[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  const text =
    encoding === "quoted-printable" ? decodeQuotedPrintable(body) : encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body;
  return text.replace(/\r\n/g, "\n");
}

function parseMessage(raw: string): Pick<ReceivedMail, "headers" | "text" | "html"> {
  const [headers, body] = splitHeadersAndBody(raw);
  const parts: { text: string | null; html: string | null } = { text: null, html: null };
  const collect = (partHeaders: Record<string, string>, partBody: string) => {
    const type = partHeaders["content-type"] ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.startsWith("multipart/") && boundary) {
      for (const section of partBody.split(`--${boundary}`).slice(1)) {
        if (section.startsWith("--")) break;
        collect(...splitHeadersAndBody(section.replace(/^\r?\n/, "")));
      }
    } else if (type.startsWith("text/html")) {
      parts.html = decodeBody(partHeaders, partBody).replace(/\n$/, "");
    } else if (type.startsWith("text/plain")) {
      parts.text = decodeBody(partHeaders, partBody).replace(/\n$/, "");
    }
  };
  collect(headers, body);
  return { headers, ...parts };
}
