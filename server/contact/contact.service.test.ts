import { count } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { contactMessages, outboxEmails, shopSettings } from "#server/db/schema.ts";
import { defaultSettings } from "#server/settings/settings.ts";
import { createTestDb } from "#tests/db.ts";
import { sendContactMessage } from "./contact.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const validForm = {
  name: "Maria Rossi",
  email: "maria.rossi@example.com",
  phone: "+39 333 123 4567",
  subject: "Disponibilità passeggino",
  message: "Buongiorno, il passeggino Trio è disponibile in negozio sabato?",
  privacy: "on",
};

async function countRows(db: Db) {
  const [messages] = await db.select({ n: count() }).from(contactMessages);
  const [mails] = await db.select({ n: count() }).from(outboxEmails);
  return { messages: messages!.n, mails: mails!.n };
}

test("a valid message is stored and an e-mail to the shop is queued", async () => {
  const db = await openDb();
  const shop = { ...defaultSettings.shop, email: "negozio@example.it" };
  await db.insert(shopSettings).values({ key: "shop", value: shop });

  const result = await sendContactMessage(db, { ...validForm, name: "  Maria Rossi  " }, "en");

  expect(result.ok).toBe(true);
  const [stored] = await db.select().from(contactMessages);
  expect(stored).toMatchObject({ name: "Maria Rossi", email: validForm.email, phone: "+39 333 123 4567", subject: validForm.subject, locale: "en" });
  const [mail] = await db.select().from(outboxEmails);
  expect(mail).toMatchObject({ toAddress: "negozio@example.it", kind: "contact-message", status: "queued" });
  expect(mail!.subject).toContain("Disponibilità passeggino");
  expect(mail!.textBody).toContain(validForm.message);
  expect(mail!.textBody).toContain("maria.rossi@example.com");
});

test("the phone is optional", async () => {
  const db = await openDb();
  const result = await sendContactMessage(db, { ...validForm, phone: "" }, "it");
  expect(result.ok).toBe(true);
  const [stored] = await db.select().from(contactMessages);
  expect(stored!.phone).toBeNull();
});

const badInputs: [string, Record<string, unknown>, Record<string, string>][] = [
  [
    "an empty form",
    {},
    {
      name: "contact.errors.nameRequired",
      email: "contact.errors.emailRequired",
      subject: "contact.errors.subjectRequired",
      message: "contact.errors.messageRequired",
      privacy: "contact.errors.privacyRequired",
    },
  ],
  ["blank fields", { ...validForm, name: "   ", subject: "" }, { name: "contact.errors.nameRequired", subject: "contact.errors.subjectRequired" }],
  ["a 10,000-character message", { ...validForm, message: "a".repeat(10_000) }, { message: "contact.errors.messageTooLong" }],
  ["a 10,000-character name", { ...validForm, name: "a".repeat(10_000) }, { name: "contact.errors.nameTooLong" }],
  [
    "a NUL byte",
    { ...validForm, name: "Maria\u0000Rossi", message: "Ciao\u0000 vorrei informazioni" },
    {
      name: "contact.errors.invalidCharacters",
      message: "contact.errors.invalidCharacters",
    },
  ],
  ["a line break in the subject", { ...validForm, subject: "Ciao\r\nBcc: x@example.com" }, { subject: "contact.errors.invalidCharacters" }],
  [
    "HTML",
    { ...validForm, message: "Guarda <a href='http://spam.example'>qui</a>", subject: "<script>alert(1)</script>" },
    {
      message: "contact.errors.noHtml",
      subject: "contact.errors.noHtml",
    },
  ],
  ["a bad e-mail", { ...validForm, email: "maria@" }, { email: "contact.errors.emailInvalid" }],
  ["a bad phone", { ...validForm, phone: "chiamami" }, { phone: "contact.errors.phoneInvalid" }],
  ["a too short message", { ...validForm, message: "Ciao" }, { message: "contact.errors.messageTooShort" }],
  ["no privacy consent", { ...validForm, privacy: undefined }, { privacy: "contact.errors.privacyRequired" }],
  ["a file instead of text", { ...validForm, message: new File(["x"], "x.txt") }, { message: "contact.errors.messageRequired" }],
];

test.each(badInputs)("%s is refused with a message per field and nothing is stored", async (_case, form, expectedErrors) => {
  const db = await openDb();

  const result = await sendContactMessage(db, form, "it");

  expect(result).toEqual({ ok: false, errors: expectedErrors });
  expect(await countRows(db)).toEqual({ messages: 0, mails: 0 });
});

test("a less-than sign that is not markup is fine", async () => {
  const db = await openDb();
  const result = await sendContactMessage(db, { ...validForm, message: "Mio figlio ha <3 anni e pesa < 15 kg" }, "it");
  expect(result.ok).toBe(true);
});
