/**
 * One "app process" of the customer mails' concurrency test (server/customer-mails/customer-mails.concurrency.test.ts):
 * its own connection pool; when the test says "go" on stdin, the cart reminder job run `rounds` times at once, then
 * the review invitation job the same. Prints "ready" once connected, then one JSON line: what the reminder runs
 * queued in all, and the invitation runs. Started with tests/checkout-workers.ts' startTestWorker.
 *
 *   node --import tsx tests/customer-mails-worker.ts <database url> <now, ISO> <rounds>
 */
import readline from "node:readline";
import { sendDueCartReminders } from "#server/customer-mails/cart-reminder.service.ts";
import { sendDueReviewInvitations } from "#server/customer-mails/review-invitation.service.ts";
import { connectPostgres } from "#server/db/client.ts";
import { afterSalesLinks } from "#tests/fixtures/after-sales.fixtures.ts";

const [url, nowIso, rounds] = process.argv.slice(2);
if (!url || !nowIso || !rounds) throw new Error("usage: customer-mails-worker.ts <database url> <now> <rounds>");
const handle = connectPostgres(url, 4);
for (let attempt = 1; ; attempt += 1) {
  const opened = await Promise.allSettled(Array.from({ length: 4 }, () => handle.ping()));
  if (opened.every((result) => result.status === "fulfilled")) break;
  if (attempt === 5) throw new Error("customer mails worker: could not open its connections");
}
process.stdout.write("ready\n");

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) if (line === "go") break;
lines.close();

const now = new Date(nowIso);
const queued: number[] = [];
for (const run of [sendDueCartReminders, sendDueReviewInvitations]) {
  const counts = await Promise.all(Array.from({ length: Number(rounds) }, () => run(handle.db, { links: afterSalesLinks, now })));
  queued.push(counts.reduce((sum, count) => sum + count, 0));
}
process.stdout.write(`${JSON.stringify(queued)}\n`);
await handle.close();
