/**
 * What a process does while PostgreSQL is away (a restart, a fail-over): once a request meets a
 * lost or refused connection, every request is answered at once with 503 and the "try again" page
 * (unavailable.ts) instead of waiting on a dead pool, and the database is pinged at most every
 * `probeEveryMs`; the first ping that succeeds lets requests through again. A request that found no
 * free connection in time (load) gets the same answer, but the gate stays open for the next ones.
 * Nothing is queued or replayed here: an order is one transaction, so a request that failed wrote
 * nothing, and the checkout form's idempotency key makes the customer's retry find an order that did commit.
 */
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "#server/log.ts";
import { unavailableAnswer } from "./unavailable";

const probeEveryMs = 500;
/** A ping that takes longer than this counts as failed: no request waits on the gate for more. */
const probeTimeoutMs = 2_000;
/** Requests turned away for a busy pool are logged at most this often, with how many since the last line. */
const busyLogEveryMs = 10_000;

/** SQLSTATEs of a server that is gone or not accepting connections (class 08, 57P0x). */
const goneSqlStates = /^(08...|57P0[1-3])$/;
const goneNodeCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
/** node-postgres reports a lost connection with plain Errors. */
const goneMessages = /Connection terminated|not queryable|Connection ended/i;
/**
 * The database is there but cannot take this request now: every pooled connection stayed busy past
 * the pool's wait (node-postgres says "timeout exceeded when trying to connect"), or the server is full.
 */
const busyMessages = /timeout exceeded when trying to connect/i;
const busySqlStates = new Set(["53300"]);

export type DatabaseTrouble = "gone" | "busy";

/**
 * Whether an error says the database could not serve the request, not that a query was wrong
 * (Drizzle wraps driver errors: the cause chain is read). "gone": the server cannot be reached;
 * "busy": it is there but had no connection free in time.
 */
export function databaseTroubleOf(error: unknown): DatabaseTrouble | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (goneSqlStates.test(code) || goneNodeCodes.has(code))) return "gone";
    if (typeof code === "string" && busySqlStates.has(code)) return "busy";
    if (goneMessages.test(current.message)) return "gone";
    if (busyMessages.test(current.message)) return "busy";
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** The 503 "try again" answer (page or JSON) through Express. */
export function sendUnavailable(req: Request, res: Response) {
  const answer = unavailableAnswer(req.path, req.get("accept"));
  res.status(answer.status).set(answer.headers).send(answer.body);
}

export type DatabaseGate = {
  /** Express middleware placed before every route that reads the database. */
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  /**
   * Any error a request met: whether it was the database's trouble (that request gets the 503
   * answer). Only "gone" closes the gate: a busy pool is load, and the next request may well get a connection.
   */
  noteError: (error: unknown) => DatabaseTrouble | null;
  isDown: () => boolean;
};

export function createDatabaseGate(ping: () => Promise<void>, log: Pick<Logger, "warn" | "info">): DatabaseGate {
  let downSince: number | null = null;
  let lastProbeAt = 0;
  let probing: Promise<boolean> | null = null;
  let busySinceLog = 0;
  let busyLoggedAt = -Infinity;

  const probe = (): Promise<boolean> => {
    if (probing) return probing;
    if (Date.now() - lastProbeAt < probeEveryMs) return Promise.resolve(false);
    lastProbeAt = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error("database ping timed out")), probeTimeoutMs);
    });
    probing = Promise.race([ping(), timeout])
      .then(
        () => {
          if (downSince !== null) log.info({ unavailableMs: Date.now() - downSince }, "database reachable again");
          downSince = null;
          return true;
        },
        () => false,
      )
      .finally(() => {
        clearTimeout(timer);
        probing = null;
      });
    return probing;
  };

  return {
    middleware(req, res, next) {
      if (downSince === null) return next();
      probe().then((reachable) => (reachable ? next() : sendUnavailable(req, res)), next);
    },
    noteError(error) {
      const trouble = databaseTroubleOf(error);
      if (trouble === "gone" && downSince === null) {
        downSince = Date.now();
        lastProbeAt = Date.now();
        log.warn({ err: error }, "database unreachable: answering 503 until it is back");
      }
      if (trouble === "busy") {
        busySinceLog += 1;
        if (Date.now() - busyLoggedAt >= busyLogEveryMs) {
          log.warn({ requests: busySinceLog }, "no database connection free in time: answered 503 (raise DATABASE_POOL_SIZE or add processes)");
          busySinceLog = 0;
          busyLoggedAt = Date.now();
        }
      }
      return trouble;
    },
    isDown: () => downSince !== null,
  };
}
