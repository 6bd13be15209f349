import { createContext } from "react-router";
import type { Auth } from "#server/accounts/auth.ts";
import type { Db } from "#server/db/client.ts";
import type { Env } from "#server/env.ts";
import type { DatabaseGate } from "./database-gate";
import type { Logger } from "./log";

/** Long-lived services every loader and action reaches through `context.get(shopContext)`. */
export type ShopServices = {
  db: Db;
  auth: Auth;
  env: Env;
  log: Logger;
  /** Absolute public origin, no trailing slash, e.g. https://www.example.it */
  publicUrl: string;
};

/** Per-request values set by the Express layer. */
export type RequestInfo = {
  /** CSP nonce for this response's inline hydration scripts. */
  cspNonce: string;
  clientIp: string;
  /** The process's database gate (database-gate.ts): React Router's error hooks tell it what a request met. */
  database?: Pick<DatabaseGate, "noteError" | "isDown">;
  /** Set when this request met the database gone or too busy: it is answered 503 "try again", not as a bug. */
  metDatabaseTrouble?: boolean;
};

export const shopContext = createContext<ShopServices>();
export const requestContext = createContext<RequestInfo>();
