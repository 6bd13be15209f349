/**
 * What a process does while PostgreSQL is away (a restart, a fail-over): once a request meets a
 * connection error, every request is answered at once with 503 and the "try again" page
 * (unavailable.ts) instead of waiting on a dead pool, and the database is pinged at most every
 * `probeEveryMs`; the first ping that succeeds lets requests through again. Nothing is queued or
 * replayed here: an order is one transaction, so a request that failed wrote nothing, and the
 * checkout form's idempotency key makes the customer's retry find an order that did commit.
 */
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "./log";
import { unavailableAnswer } from "./unavailable";

const probeEveryMs = 500;
/** A ping that takes longer than this counts as failed: no request waits on the gate for more. */
const probeTimeoutMs = 2_000;

/** SQLSTATEs of a server that is gone or not accepting connections (class 08, 57P0x) or full (53300). */
const unavailableSqlStates = /^(08...|57P0[1-3]|53300)$/;
const unavailableNodeCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
/** node-postgres reports a lost or never-made connection with plain Errors. */
const unavailableMessages = /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended/i;

/** True for errors that say the database cannot be reached, not that a query was wrong (Drizzle wraps them: the cause chain is read). */
export function isDatabaseUnavailableError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (unavailableSqlStates.test(code) || unavailableNodeCodes.has(code))) return true;
    if (unavailableMessages.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The 503 "try again" answer (page or JSON) through Express. */
export function sendUnavailable(req: Request, res: Response) {
  const answer = unavailableAnswer(req.path, req.get("accept"));
  res.status(answer.status).set(answer.headers).send(answer.body);
}

export type DatabaseGate = {
  /** Express middleware placed before every route that reads the database. */
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  /** Any error a request met: true (and the gate closes) when it says the database is away. */
  noteError: (error: unknown) => boolean;
  isDown: () => boolean;
};

export function createDatabaseGate(ping: () => Promise<void>, log: Pick<Logger, "warn" | "info">): DatabaseGate {
  let downSince: number | null = null;
  let lastProbeAt = 0;
  let probing: Promise<boolean> | null = null;

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
      probe().then(
        (reachable) => (reachable ? next() : sendUnavailable(req, res)),
        next,
      );
    },
    noteError(error) {
      if (!isDatabaseUnavailableError(error)) return false;
      if (downSince === null) {
        downSince = Date.now();
        lastProbeAt = Date.now();
        log.warn({ err: error }, "database unreachable: answering 503 until it is back");
      }
      return true;
    },
    isDown: () => downSince !== null,
  };
}
