import pino from "pino";

/**
 * Structured logs on stdout, one line per event; the level comes from LOG_LEVEL. As JSON for a log
 * collector (the default), or as short text lines for a person at the terminal (LOG_FORMAT=text).
 */
export function createLogger(level: string, format: "json" | "text" = "json") {
  const options = { level, base: { service: "shop" }, timestamp: pino.stdTimeFunctions.isoTime };
  return format === "text" ? pino(options, textLines(process.stdout)) : pino(options);
}

export type Logger = ReturnType<typeof createLogger>;

const levelNames: Record<number, string> = { 10: "trace", 20: "debug", 30: "info", 40: "warning", 50: "error", 60: "fatal" };
const hiddenFields = new Set(["level", "time", "msg", "service", "pid", "hostname", "err"]);

/** One pino JSON line as "12:04:05 message key=value": the level only when it is not info; an error with its stack. */
export function formatLogLine(json: string): string {
  const record = JSON.parse(json) as Record<string, unknown>;
  const time = typeof record.time === "string" ? record.time.slice(11, 19) : "";
  const level = record.level === 30 ? "" : `${levelNames[record.level as number] ?? "log"}: `;
  const fields = Object.entries(record)
    .filter(([key]) => !hiddenFields.has(key))
    .map(([key, value]) => ` ${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join("");
  const err = record.err as { stack?: string } | undefined;
  const message = typeof record.msg === "string" ? record.msg : "";
  return `${time} ${level}${message}${fields}${err?.stack ? `\n${err.stack}` : ""}\n`;
}

function textLines(out: NodeJS.WritableStream) {
  return { write: (json: string) => out.write(formatLogLine(json)) };
}
