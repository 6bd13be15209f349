import { expect, onTestFinished, test } from "vitest";
import { MailSendError } from "./delivery";
import { findClosedPort, startLocalSmtpServer } from "#tests/peers/local-smtp-server.ts";
import { createMailer, type Mailer } from "./mailer";

const from = "Bimbi Felici <negozio@bimbifelici.example>";

async function mailerFor(url: string): Promise<Mailer> {
  const mailer = createMailer({ SMTP_URL: url, MAIL_FROM: from })!;
  onTestFinished(() => mailer.close());
  return mailer;
}

async function sendError(mailer: Mailer, to: string): Promise<MailSendError> {
  const error = await mailer.send({ to, subject: "Prova", text: "Ciao" }).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MailSendError);
  return error as MailSendError;
}

test("without SMTP_URL there is no mailer", () => {
  expect(createMailer({ SMTP_URL: undefined, MAIL_FROM: from })).toBeNull();
});

test("sends text and HTML from MAIL_FROM with a stable Message-ID", async () => {
  const smtp = await startLocalSmtpServer();
  onTestFinished(() => smtp.close());
  const mailer = await mailerFor(smtp.url);

  await mailer.send({
    to: "maria@example.com",
    subject: "Il tuo ordine è confermato",
    text: "Grazie!",
    html: "<p>Grazie!</p>",
    messageKey: "outbox-7-1",
  });

  expect(smtp.received).toHaveLength(1);
  const [mail] = smtp.received;
  expect(mail!.envelopeTo).toEqual(["maria@example.com"]);
  expect(mail!.headers.from).toBe("Bimbi Felici <negozio@bimbifelici.example>");
  expect(mail!.headers.to).toBe("maria@example.com");
  expect(mail!.headers.subject).toBe("Il tuo ordine è confermato");
  expect(mail!.headers["message-id"]).toBe("<outbox-7-1@bimbifelici.example>");
  expect(mail!.text).toBe("Grazie!");
  expect(mail!.html).toBe("<p>Grazie!</p>");
});

test("a 5xx refusal of the recipient is permanent", async () => {
  const smtp = await startLocalSmtpServer();
  onTestFinished(() => smtp.close());
  const error = await sendError(await mailerFor(smtp.url), "rejected@example.com");
  expect(error.permanent).toBe(true);
  expect(error.message).toContain("550");
});

test("a 4xx refusal of the recipient is temporary", async () => {
  const smtp = await startLocalSmtpServer();
  onTestFinished(() => smtp.close());
  const error = await sendError(await mailerFor(smtp.url), "busy@example.com");
  expect(error.permanent).toBe(false);
  expect(error.message).toContain("450");
});

test("a server that is down is a temporary failure", async () => {
  const port = await findClosedPort();
  const error = await sendError(await mailerFor(`smtp://127.0.0.1:${port}`), "maria@example.com");
  expect(error.permanent).toBe(false);
  expect(error.message).toMatch(/ECONNECTION|ECONNREFUSED/);
});
