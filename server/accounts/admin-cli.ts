/**
 * `npm run admin:create -- email@example.com [--password ...]`: makes a shop administrator.
 * An existing account is promoted; otherwise one is created, with a generated password printed
 * once. Stop the shop first when it runs on the embedded database (one process per data folder); while it
 * runs, its one-time setup link makes the first administrator (owner-setup.service.ts).
 */
import { parseArgs } from "node:util";
import { ConfigError, publicUrlOf, readEnv } from "#server/env.ts";
import { DatabaseLockedError } from "#server/db/pglite-lock.ts";
import { createLogger } from "#server/log.ts";
import { openShopDatabase } from "#server/http/start.ts";
import { createAuth } from "./auth";
import { makeAdmin } from "./admin.service";

const usage = "usage: npm run admin:create -- email@example.com [--password <password>]";

let args;
try {
  args = parseArgs({ allowPositionals: true, options: { password: { type: "string" } } });
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const [email] = args.positionals;
if (!email || args.positionals.length > 1) {
  console.error(usage);
  process.exit(2);
}

try {
  const env = readEnv();
  const handle = await openShopDatabase({ ...env, SEED_SAMPLE_DATA: false }, createLogger("warn"));
  try {
    const auth = createAuth({ db: handle.db, env, publicUrl: publicUrlOf(env) });
    const result = await makeAdmin({ db: handle.db, auth }, { email, password: args.values.password });
    if (!result.ok) {
      console.error(
        result.error === "email-invalid"
          ? `"${email}" is not a valid e-mail address.`
          : "That password is too common or easy to guess: choose another, or leave --password out to get a generated one.",
      );
      process.exitCode = 1;
    } else if (result.outcome === "created") {
      console.log(`Created the administrator ${result.email}.`);
      if (result.passwordGenerated) console.log(`Password (shown only now; change it after the first login): ${result.password}`);
    } else if (result.outcome === "promoted") {
      console.log(`${result.email} is now an administrator.`);
    } else {
      console.log(`${result.email} was already an administrator.`);
    }
  } finally {
    await handle.close();
  }
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    console.error(error.message);
    console.error("While it runs with no administrator yet, the owner's account is made with the setup link it printed at start (/admin/setup).");
    process.exit(1);
  }
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
