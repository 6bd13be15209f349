import pino from "pino";

/** Structured JSON logs on stdout (one line per event); the level comes from LOG_LEVEL. */
export function createLogger(level: string) {
  return pino({ level, base: { service: "shop" }, timestamp: pino.stdTimeFunctions.isoTime });
}

export type Logger = ReturnType<typeof createLogger>;
