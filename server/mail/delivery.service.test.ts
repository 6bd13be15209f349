import { eq } from "drizzle-orm";
import { expect, onTestFinished, test, vi } from "vitest";
import type { Db } from "#server/db/client.ts";
import { outboxEmails } from "#server/db/schema.ts";
import { defaultSettings } from "#server/settings/settings.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { MailSendError, sendingLeaseMs } from "./delivery";
import { mailDeliveryIntervalMs, startMailDeliveryJob } from "./delivery-job";
import { countOutboxByStatus, deliverDueEmails, getOutboxEmail, listOutbox, resendEmail, type OutboxEmail } from "./delivery.service";
import { findClosedPort, startLocalSmtpServer, type LocalSmtpServer } from "#tests/peers/local-smtp-server.ts";
import { createMailer, type Mailer, type OutgoingMail } from "./mailer";
import { queueEmail } from "./outbox";
import { renderEmail } from "./templates";

const minute = 60_000;
const from = "Bimbi Felici <negozio@bimbifelici.example>";

async function openDb(poolSize?: number): Promise<Db> {
  const handle = await createTestDb({ poolSize });
  onTestFinished(() => handle.close());
  return handle.db;
}

async function startSmtp(port?: number): Promise<LocalSmtpServer> {
  const smtp = await startLocalSmtpServer(port);
  onTestFinished(() => smtp.close());
  return smtp;
}

function smtpMailer(port: number): Mailer {
  const mailer = createMailer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: from })!;
  onTestFinished(() => mailer.close());
  return mailer;
}

/** An in-memory mailer: records what it sends, optionally slowly (real time: racing runs on PostgreSQL interleave while it waits). */
function memoryMailer(options: { delayMs?: number } = {}) {
  const sent: OutgoingMail[] = [];
  const mailer: Mailer = {
    send: async (message) => {
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      sent.push(message);
    },
    close: () => {},
  };
  return { mailer, sent };
}

function failingMailer(error = new MailSendError("ECONNECTION: connect ECONNREFUSED 127.0.0.1:25", { permanent: false })): Mailer {
  return { send: () => Promise.reject(error), close: () => {} };
}

async function queue(db: Db, overrides: Partial<Parameters<typeof queueEmail>[1]> = {}) {
  const id = await queueEmail(db, {
    to: "maria.rossi@example.com",
    subject: "Conferma ordine 1042",
    text: "Grazie per il tuo ordine.",
    kind: "order-confirmation",
    locale: "it",
    ...overrides,
  });
  return id!;
}

async function row(db: Db, id: number): Promise<OutboxEmail> {
  const [mail] = await db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
  return mail!;
}

/** A moment safely after the database's own `now()` default for next_attempt_at. */
const later = (ms = 0) => new Date(Date.now() + 1000 + ms);

test("a queued mail is delivered over SMTP with its subject, text and HTML", async () => {
  const db = await openDb();
  const smtp = await startSmtp();
  const rendered = renderEmail({
    locale: "it",
    shop: defaultSettings.shop,
    subject: "Il tuo ordine n. 1042 è confermato",
    heading: "Grazie, Maria & Luca!",
    paragraphs: ["Abbiamo ricevuto il tuo ordine: ti scriveremo quando partirà. ".repeat(3).trim()],
    details: [["Totale", "349,00 €"]],
    action: { label: "Vedi l'ordine", url: "https://www.bimbifelici.example/shopping" },
  });
  const id = await queue(db, { to: "maria.rossi@example.com", ...rendered });
  const now = later();

  const report = await deliverDueEmails(db, smtpMailer(smtp.port), { now });

  expect(report).toMatchObject({ claimed: 1, sent: 1, retried: 0, failed: 0 });
  expect(smtp.received).toHaveLength(1);
  const [mail] = smtp.received;
  expect(mail!.envelopeTo).toEqual(["maria.rossi@example.com"]);
  expect(mail!.headers.to).toBe("maria.rossi@example.com");
  expect(mail!.headers.from).toBe(from);
  expect(mail!.headers.subject).toBe("Il tuo ordine n. 1042 è confermato");
  expect(mail!.text!.trimEnd()).toBe(rendered.text.trimEnd());
  expect(mail!.html!.trimEnd()).toBe(rendered.html.trimEnd());
  expect(mail!.html).toContain("Grazie, Maria &amp; Luca!");
  expect(await row(db, id)).toMatchObject({ status: "sent", attempts: 1, sentAt: now, lastError: null });
});

test("a mailing-list mail goes out with its unsubscribe link and List-Unsubscribe headers, also when sent again", async () => {
  const db = await openDb();
  const smtp = await startSmtp();
  const unsubscribe = "https://www.bimbifelici.example/newsletter/cancellazione?token=abc";
  const rendered = renderEmail({
    locale: "it",
    shop: defaultSettings.shop,
    subject: "Conferma la tua iscrizione",
    heading: "Conferma la tua iscrizione",
    paragraphs: ["Un clic e ci sei."],
    unsubscribe: { label: "Cancella l'iscrizione alla newsletter", url: unsubscribe },
  });
  const id = await queue(db, { to: "anna@example.com", kind: "newsletter-opt-in", ...rendered });
  const now = later();
  await deliverDueEmails(db, smtpMailer(smtp.port), { now });
  await resendEmail(db, id, { now });
  await deliverDueEmails(db, smtpMailer(smtp.port), { now });

  expect(smtp.received).toHaveLength(2);
  for (const mail of smtp.received) {
    expect(mail.headers["list-unsubscribe"]).toBe(`<${unsubscribe}>`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail.text).toContain(`Cancella l'iscrizione alla newsletter: ${unsubscribe}`);
    expect(mail.html).toContain(`<a href="${unsubscribe}"`);
  }
  // Other mail has none.
  expect(renderEmail({ locale: "it", shop: defaultSettings.shop, subject: "x", heading: "x", paragraphs: [] }).headers).toBeUndefined();
});

test("with SMTP down the mail stays queued for later; when it is back it goes out exactly once", async () => {
  const db = await openDb();
  const port = await findClosedPort();
  const mailer = smtpMailer(port);
  const id = await queue(db);
  const firstTry = later();

  const down = await deliverDueEmails(db, mailer, { now: firstTry });

  expect(down).toMatchObject({ claimed: 1, sent: 0, retried: 1 });
  const afterFailure = await row(db, id);
  expect(afterFailure).toMatchObject({ status: "queued", attempts: 1, sentAt: null });
  expect(afterFailure.lastError).toMatch(/ECONNREFUSED|ECONNECTION/);
  expect(afterFailure.nextAttemptAt).toEqual(new Date(firstTry.getTime() + minute));

  // The server comes back, but the retry is not due yet: nothing is sent.
  const smtp = await startSmtp(port);
  expect(await deliverDueEmails(db, mailer, { now: new Date(firstTry.getTime() + 30_000) })).toMatchObject({ claimed: 0 });
  expect(smtp.received).toHaveLength(0);

  // A minute later it goes out, once; later runs find nothing more to do.
  const retryAt = new Date(firstTry.getTime() + minute);
  expect(await deliverDueEmails(db, mailer, { now: retryAt })).toMatchObject({ claimed: 1, sent: 1 });
  expect(await deliverDueEmails(db, mailer, { now: new Date(retryAt.getTime() + 60 * minute) })).toMatchObject({ claimed: 0 });
  expect(smtp.received).toHaveLength(1);
  expect(await row(db, id)).toMatchObject({ status: "sent", attempts: 2, sentAt: retryAt });
});

test("failed attempts back off 1, 2, 4 ... minutes up to 6 hours and the mail is never dropped", async () => {
  const db = await openDb();
  const id = await queue(db);
  let now = later();
  const waits: number[] = [];
  for (let attempt = 1; attempt <= 14; attempt++) {
    await deliverDueEmails(db, failingMailer(), { now });
    const mail = await row(db, id);
    expect(mail).toMatchObject({ status: "queued", attempts: attempt });
    waits.push((mail.nextAttemptAt.getTime() - now.getTime()) / minute);
    now = mail.nextAttemptAt;
  }
  expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 360, 360, 360, 360, 360]);
});

test("a recipient refused for good (5xx) marks the mail failed; a temporary 4xx keeps it queued", async () => {
  const db = await openDb();
  const smtp = await startSmtp();
  const rejected = await queue(db, { to: "rejected@example.com" });
  const busy = await queue(db, { to: "busy@example.com" });
  const fine = await queue(db, { to: "maria.rossi@example.com" });

  const report = await deliverDueEmails(db, smtpMailer(smtp.port), { now: later() });

  expect(report).toMatchObject({ claimed: 3, sent: 1, retried: 1, failed: 1 });
  const failed = await row(db, rejected);
  expect(failed).toMatchObject({ status: "failed", attempts: 1 });
  expect(failed.lastError).toContain("550");
  const retried = await row(db, busy);
  expect(retried).toMatchObject({ status: "queued", attempts: 1 });
  expect(retried.lastError).toContain("450");
  expect(await row(db, fine)).toMatchObject({ status: "sent" });
  expect(smtp.received.map((mail) => mail.envelopeTo)).toEqual([["maria.rossi@example.com"]]);
});

test("without SMTP nothing changes: mail stays queued and visible", async () => {
  const db = await openDb();
  const id = await queue(db);
  const before = await row(db, id);

  expect(await deliverDueEmails(db, null, { now: later(60 * minute) })).toEqual({
    requeued: 0,
    claimed: 0,
    sent: 0,
    retried: 0,
    failed: 0,
    released: 0,
  });
  expect(await row(db, id)).toEqual(before);
  expect(startMailDeliveryJob({ db, env: { SMTP_URL: undefined, MAIL_FROM: from }, log: silentLog() })).toBeNull();
});

test("a mail left 'sending' by a process that died is queued again after the lease and sent", async () => {
  const db = await openDb();
  const id = await queue(db);
  const claimedAt = later();
  // The first process claims the mail and dies in the middle of sending it: send never settles.
  let settleLateSend: (error: Error) => void = () => {};
  const dying: Mailer = { send: () => new Promise<void>((_resolve, reject) => (settleLateSend = reject)), close: () => {} };
  // This process "dies" mid-send: its run is awaited only at the end, once its send is made to fail.
  const dyingRun = deliverDueEmails(db, dying, { now: claimedAt });
  await vi.waitFor(async () => expect((await row(db, id)).status).toBe("sending"));

  // Before the lease is over, nobody else touches it.
  const { mailer, sent } = memoryMailer();
  expect(await deliverDueEmails(db, mailer, { now: new Date(claimedAt.getTime() + sendingLeaseMs - 1000) })).toMatchObject({
    requeued: 0,
    claimed: 0,
  });

  // After it, the mail is queued again (the cut attempt counts) and sent.
  const afterLease = new Date(claimedAt.getTime() + sendingLeaseMs);
  expect(await deliverDueEmails(db, mailer, { now: afterLease })).toMatchObject({ requeued: 1, claimed: 1, sent: 1 });
  expect(sent.map((mail) => mail.to)).toEqual(["maria.rossi@example.com"]);
  expect(await row(db, id)).toMatchObject({ status: "sent", attempts: 2, sentAt: afterLease });

  // Should the first process wake up after all, its late outcome does not overwrite the newer state.
  settleLateSend(new Error("socket hang up"));
  await dyingRun;
  expect(await row(db, id)).toMatchObject({ status: "sent", attempts: 2 });
});

test("a run stopped by shutdown gives its untried mails back to the queue", async () => {
  const db = await openDb();
  const ids = [await queue(db), await queue(db), await queue(db)];
  const controller = new AbortController();
  const sent: string[] = [];
  const mailer: Mailer = {
    send: async (message) => {
      sent.push(message.subject);
      controller.abort();
    },
    close: () => {},
  };

  const report = await deliverDueEmails(db, mailer, { now: later(), signal: controller.signal });

  expect(report).toMatchObject({ claimed: 3, sent: 1, released: 2 });
  expect((await row(db, ids[0]!)).status).toBe("sent");
  expect(await row(db, ids[1]!)).toMatchObject({ status: "queued", attempts: 0 });
  expect(await row(db, ids[2]!)).toMatchObject({ status: "queued", attempts: 0 });
});

test("one run claims at most batchSize mails, oldest first", async () => {
  const db = await openDb();
  for (let i = 0; i < 10; i++) await queue(db, { to: `cliente${i}@example.com` });
  const { mailer, sent } = memoryMailer();

  expect(await deliverDueEmails(db, mailer, { now: later(), batchSize: 3 })).toMatchObject({ claimed: 3, sent: 3 });

  expect(sent.map((mail) => mail.to)).toEqual(["cliente0@example.com", "cliente1@example.com", "cliente2@example.com"]);
  expect(await countOutboxByStatus(db)).toEqual({ queued: 7, sending: 0, sent: 3, failed: 0 });
});

test("two delivery runs at the same time never send one mail twice", async () => {
  // On PostgreSQL the runs use separate pool connections and really race; PGlite serialises them.
  const db = await openDb(6);
  await db.insert(outboxEmails).values(
    Array.from({ length: 40 }, (_, i) => ({
      toAddress: `cliente${i}@example.com`,
      subject: `Mail ${i}`,
      textBody: "Ciao",
      kind: "test",
      locale: "it",
    })),
  );
  const { mailer, sent } = memoryMailer({ delayMs: 2 });
  const now = later();

  let largestClaim = 0;
  const worker = async () => {
    let total = 0;
    for (;;) {
      const report = await deliverDueEmails(db, mailer, { now, batchSize: 3 });
      largestClaim = Math.max(largestClaim, report.claimed);
      total += report.sent;
      if (report.claimed === 0) return total;
    }
  };
  const totals = await Promise.all([worker(), worker(), worker(), worker()]);

  expect(totals.reduce((a, b) => a + b, 0)).toBe(40);
  expect(totals.filter((total) => total > 0).length).toBeGreaterThan(1);
  expect(largestClaim).toBe(3);
  expect(sent).toHaveLength(40);
  expect(new Set(sent.map((mail) => mail.to)).size).toBe(40);
  expect((await countOutboxByStatus(db)).sent).toBe(40);
}, 60_000);

testOnPostgres("a mail locked by another run is skipped, not waited for", async () => {
  const db = await openDb(4);
  const locked = await queue(db, { to: "locked@example.com" });
  await queue(db, { to: "free@example.com" });
  const { mailer, sent } = memoryMailer();

  await db.transaction(async (tx) => {
    await tx.select({ id: outboxEmails.id }).from(outboxEmails).where(eq(outboxEmails.id, locked)).for("update");
    // Another connection: it must not block on the locked row, only take the free one.
    const report = await deliverDueEmails(db, mailer, { now: later() });
    expect(report).toMatchObject({ claimed: 1, sent: 1 });
  });
  expect(sent.map((mail) => mail.to)).toEqual(["free@example.com"]);
  expect((await row(db, locked)).status).toBe("queued");
});

test("resendEmail queues a failed mail again and copies a sent one", async () => {
  const db = await openDb();
  const smtp = await startSmtp();
  const mailer = smtpMailer(smtp.port);
  const failedId = await queue(db, { to: "rejected@example.com", subject: "Rifiutata" });
  const sentId = await queue(db, { subject: "Spedita", html: "<p>Spedita</p>", dedupeKey: "order-confirmation:1042" });
  const first = later();
  await deliverDueEmails(db, mailer, { now: first });
  expect((await row(db, failedId)).status).toBe("failed");
  expect((await row(db, sentId)).status).toBe("sent");

  // Queued or being sent: refused, it is going out anyway.
  const pending = await queue(db, { subject: "In coda" });
  expect(await resendEmail(db, pending)).toEqual({ ok: false, error: "mail.errors.alreadyQueued" });

  const second = new Date(first.getTime() + minute);
  expect(await resendEmail(db, failedId, { now: second })).toEqual({ ok: true, id: failedId });
  expect(await row(db, failedId)).toMatchObject({ status: "queued", nextAttemptAt: second });

  const copy = await resendEmail(db, sentId, { now: second });
  expect(copy.ok && copy.id).not.toBe(sentId);
  const copyId = (copy as { id: number }).id;
  expect(await row(db, copyId)).toMatchObject({ status: "queued", attempts: 0, subject: "Spedita", htmlBody: "<p>Spedita</p>", dedupeKey: null });
  expect(await row(db, sentId)).toMatchObject({ status: "sent", sentAt: first });

  await deliverDueEmails(db, mailer, { now: second });
  expect(smtp.received.map((mail) => mail.headers.subject)).toEqual(["Spedita", "In coda", "Spedita"]);
  expect(await row(db, copyId)).toMatchObject({ status: "sent" });
  expect(await row(db, failedId)).toMatchObject({ status: "failed", attempts: 2 });
});

test("resendEmail and getOutboxEmail say so for a missing mail (the back office answers 404)", async () => {
  const db = await openDb();
  expect(await resendEmail(db, 999_999)).toEqual({ ok: false, error: "not-found" });
  expect(await getOutboxEmail(db, 999_999)).toBeNull();
});

test("listOutbox pages the outbox newest first and filters by status", async () => {
  const db = await openDb();
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) ids.push(await queue(db, { subject: `Mail ${i}` }));
  const failedId = await queue(db, { to: "rejected@example.com", subject: "Rifiutata" });
  await db.update(outboxEmails).set({ status: "failed", attempts: 1, lastError: "550 No such user" }).where(eq(outboxEmails.id, failedId));

  const first = await listOutbox(db, { page: 1, pageSize: 4 });
  expect(first).toMatchObject({ total: 6, page: 1, pageCount: 2, pageSize: 4 });
  expect(first.emails.map((mail) => mail.id)).toEqual([failedId, ids[4], ids[3], ids[2]]);
  expect(first.emails[0]).not.toHaveProperty("textBody");

  const second = await listOutbox(db, { page: 2, pageSize: 4 });
  expect(second.emails.map((mail) => mail.id)).toEqual([ids[1], ids[0]]);
  // A page past the end shows the last one.
  expect((await listOutbox(db, { page: 99, pageSize: 4 })).page).toBe(2);

  const failed = await listOutbox(db, { status: "failed" });
  expect(failed.total).toBe(1);
  expect(failed.emails[0]).toMatchObject({ id: failedId, status: "failed", lastError: "550 No such user" });
  expect(await countOutboxByStatus(db)).toEqual({ queued: 5, sending: 0, sent: 0, failed: 1 });
  expect((await getOutboxEmail(db, ids[0]!))?.textBody).toBe("Grazie per il tuo ordine.");
});

test("the delivery job sends queued mail right away when SMTP is configured", async () => {
  const db = await openDb();
  const smtp = await startSmtp();
  await queue(db, { subject: "Dal job" });
  // next_attempt_at defaults to the database's now() (microseconds); the job's clock (milliseconds, only
  // Date faked) is set past it.
  vi.useFakeTimers({ toFake: ["Date"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  vi.setSystemTime(Date.now() + 5);
  const log = silentLog();

  const job = startMailDeliveryJob({ db, env: { SMTP_URL: smtp.url, MAIL_FROM: from }, log })!;
  onTestFinished(() => job.stop());

  await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 5000 });
  await job.stop();
  expect(smtp.received[0]!.headers.subject).toBe("Dal job");
  expect(log.info).toHaveBeenCalledWith(expect.objectContaining({ sent: 1 }), "e-mails sent");
});

function silentLog() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}

test("a mail queued while the job waits for its next poll goes out a moment later, not at the poll", async () => {
  const db = await openDb();
  const smtp = await startSmtp();
  const log = silentLog();
  const job = startMailDeliveryJob({ db, env: { SMTP_URL: smtp.url, MAIL_FROM: from }, log })!;
  onTestFinished(() => job.stop());
  // The first run (at start) finds nothing; after it the next poll is 15 s away.
  await job.runNow();
  expect(smtp.received).toHaveLength(0);

  await queue(db, { subject: "Conferma d'ordine" });
  await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: mailDeliveryIntervalMs / 2 });
  expect(smtp.received[0]!.headers.subject).toBe("Conferma d'ordine");
});
