/**
 * One row per part of the load suite, appended to LOAD_RESULTS_FILE as each part ends (also when an
 * assertion then fails), so scripts/test-load.mjs can print every part's figures in one table.
 */
import fs from "node:fs";

export type ResultRow = {
  part: string;
  connections: number;
  requests: number;
  /** Non-2xx/3xx answers other than the refusals and the clean "try again" ones, broken connections. */
  errors: number;
  /** Answers slower than the bound. */
  hangs: number;
  /** 409/422: what the rules refuse (out of stock). */
  refused: number;
  /** 502/503/504 with the "try again" page or JSON, or nginx's 429. */
  unavailable: number;
  ordersPlaced: number;
  oversells: number;
  lost: number;
  doubled: number;
  halfWritten: number;
  /** Seconds from the fault's end to the first good answer (null: no fault in this part). */
  recoverySeconds: number | null;
  seconds: number;
  note: string;
};

export function recordResult(row: ResultRow) {
  const file = process.env.LOAD_RESULTS_FILE;
  console.log(`load: ${row.part}: ${JSON.stringify(row)}`);
  if (file) fs.appendFileSync(file, `${JSON.stringify(row)}\n`);
}
