import { createContext } from "react-router";
import type { ShopServices } from "#server/shop-services.ts";
import type { DatabaseGate } from "./database-gate";

/** Per-request values set by the Express layer. */
export type RequestInfo = {
  /** CSP nonce for this response's inline hydration scripts; empty on a page shared by every visitor. */
  cspNonce: string;
  /** A visitor's page that may be kept and given to every visitor (page-cache.ts): no nonce, rendered whole. */
  sharedPage?: boolean;
  /** Set by the render of such a page: what a customer's copy of it is filled in from (page-filler.ts). */
  fillSource?: unknown;
  clientIp: string;
  /** The process's database gate (database-gate.ts): React Router's error hooks tell it what a request met. */
  database?: Pick<DatabaseGate, "noteError" | "isDown">;
  /** Set when this request met the database gone or too busy: it is answered 503 "try again", not as a bug. */
  metDatabaseTrouble?: boolean;
};

/** The long-lived services every loader and action reaches through `context.get(shopContext)`. */
export const shopContext = createContext<ShopServices>();
export const requestContext = createContext<RequestInfo>();
