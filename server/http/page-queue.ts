/**
 * Server-rendered pages (and their `.data` loads) are worked on at most `concurrency` at a time; the others
 * wait in arrival order, and one whose visitor left while it waited is dropped without any work.
 *
 * Why: without it every open connection's request ran at once, each a step at a time (a listing's queries
 * waited behind every other request's, the one embedded database serves one query at a time), so under
 * 50 connections all of them finished late together, past autocannon's 10 s, and the process went on
 * rendering the pages of visitors who had given up: 0 answers a second at 50 connections on a busy machine.
 * In arrival order the same work answers the first requests first and never works for nobody
 * (docs/decisions/0027-light-pages-and-page-queue.md).
 */
import type { NextFunction, Request, Response } from "express";

/** Page requests: GET and HEAD outside the HTTP API (whose calls may wait on others, e.g. a payment provider). */
function isPageRequest(req: Request): boolean {
  return (req.method === "GET" || req.method === "HEAD") && !req.path.startsWith("/api/");
}

export function pageQueue({ concurrency }: { concurrency: number }) {
  return queueRequests({ concurrency, applies: isPageRequest });
}

/**
 * Multipart posts (the back office's pictures and CSV files) are read and worked on one at a time in a
 * process: a waiting one is not read at all (nginx keeps its body on disk meanwhile). Read at once, 20
 * uploads of 2 MB photos held some ten copies of their bytes each (the edge's check, the form, the file)
 * and took a process from 300 to 700 MB (load/proxy.load.ts, part g).
 */
export function uploadQueue() {
  return queueRequests({ concurrency: 1, applies: (req) => req.method === "POST" && req.is("multipart/form-data") === "multipart/form-data" });
}

/** Requests `applies` picks are worked on at most `concurrency` at a time, in arrival order. */
function queueRequests({ concurrency, applies }: { concurrency: number; applies: (req: Request) => boolean }) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const startWaiting = () => {
    while (running < concurrency && waiting.length > 0) waiting.shift()!();
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (!applies(req)) return next();
    const start = () => {
      // The visitor closed the connection while the request waited: nobody would read the page.
      if (req.socket.destroyed) return;
      running += 1;
      // "close" comes once the answer is sent or the connection is gone, whichever is first.
      res.once("close", () => {
        running -= 1;
        startWaiting();
      });
      next();
    };
    if (running < concurrency) start();
    else waiting.push(start);
  };
}

/**
 * Pages at once per process: the embedded database runs in this process's thread, so a few are enough to
 * keep it and the rendering busy; on PostgreSQL as many as the pool has connections.
 */
export function pageConcurrencyOf(database: "pglite" | "postgres", poolSize: number): number {
  return database === "pglite" ? 4 : poolSize;
}
