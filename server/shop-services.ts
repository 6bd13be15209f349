import type { Auth } from "#server/accounts/auth.ts";
import type { Db } from "#server/db/client.ts";
import type { Env } from "#server/env.ts";
import type { Logger } from "#server/log.ts";

/**
 * The running shop's long-lived services, built once at start (server/http/app.ts). Loaders and actions
 * reach them through the router context (server/http/context.ts); a domain takes the ones it needs as
 * plain arguments, e.g. `Pick<ShopServices, "db" | "env">`.
 */
export type ShopServices = {
  db: Db;
  auth: Auth;
  env: Env;
  log: Logger;
  /** Absolute public origin, no trailing slash, e.g. https://www.example.it */
  publicUrl: string;
};
