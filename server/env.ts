import { z } from "zod";

/**
 * The only reader of process.env. Every setting the shop understands is listed here,
 * with its default; docs/configuration.md's table mirrors this file.
 */
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce
    .number({ error: "PORT must be a whole number between 1 and 65535" })
    .int("PORT must be a whole number between 1 and 65535")
    .min(1, "PORT must be a whole number between 1 and 65535")
    .max(65535, "PORT must be a whole number between 1 and 65535")
    .default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** Public address customers use; links in e-mails, canonical URLs and auth origins derive from it. */
  PUBLIC_URL: z.url({ error: "PUBLIC_URL must be an absolute http(s) URL" }).optional(),
  /** A production start on a localhost PUBLIC_URL is a local try-out or a test: it must say so (refuseLocalPublicUrl). */
  ALLOW_LOCALHOST_PUBLIC_URL: z
    .enum(["true", "false"], { error: "ALLOW_LOCALHOST_PUBLIC_URL must be true or false" })
    .default("false")
    .transform((value) => value === "true"),
  /** PostgreSQL connection string. Unset: the embedded PGlite database in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .refine((value) => {
      try {
        const url = new URL(value);
        return ((url.protocol === "postgres:" || url.protocol === "postgresql:") && url.hostname !== "") || url.searchParams.has("host");
      } catch {
        return false;
      }
    }, "DATABASE_URL must look like postgres://user:password@host:5432/database")
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().min(1).default("./data"),
  /** Product pictures and their variants; default DATA_DIR/media. Tests share one across runs. */
  MEDIA_DIR: z.string().min(1).optional(),
  /** Pictures in an S3-compatible bucket instead of MEDIA_DIR (server/media/media-store.ts); the rest are its access. */
  MEDIA_S3_BUCKET: z.string().min(3).max(63).optional(),
  MEDIA_S3_PREFIX: z.string().max(200).optional(),
  MEDIA_S3_ENDPOINT: z.url({ error: "MEDIA_S3_ENDPOINT must be an http(s) URL" }).optional(),
  MEDIA_S3_REGION: z.string().min(1).optional(),
  MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Secret that signs sessions and tokens. Unset in development: one is generated into DATA_DIR. */
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_PROVIDER_NAME: z.string().min(1).default("OpenID"),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /**
   * Without Stripe keys, card orders go to the labelled test-payment page, where anyone can mark them paid.
   * Outside production it is on; in production only with this set to "true" (`npm start`, the try-out).
   */
  ALLOW_TEST_PAYMENTS: z
    .enum(["true", "false"], { error: 'ALLOW_TEST_PAYMENTS must be "true" or "false"' })
    .default("false")
    .transform((value) => value === "true"),
  /** For tests: point the Stripe SDK at a local Stripe-compatible server, e.g. http://127.0.0.1:12111 */
  STRIPE_API_URL: z.url().optional(),
  /**
   * Scalapay's online API (docs/decisions/0104-scalapay.md): with a key, Scalapay's pay in 3 may be offered. The URL
   * defaults to production; the sandbox is https://integration.api.scalapay.com, tests use a local server.
   */
  SCALAPAY_API_KEY: z.string().min(1).optional(),
  SCALAPAY_API_URL: z.url({ error: "SCALAPAY_API_URL must be an http(s) URL" }).default("https://api.scalapay.com"),
  /**
   * A-Cube's SDI API (docs/decisions/0091-sdi-intermediary.md): the account's e-mail and password send
   * invoices to the SDI; unset: the staff download each file and hand it over. The URLs default to
   * production (sandbox: https://api-sandbox.acubeapi.com, https://common-sandbox.api.acubeapi.com).
   */
  ACUBE_EMAIL: z.email({ error: "ACUBE_EMAIL must be an e-mail address" }).optional(),
  ACUBE_PASSWORD: z.string().min(1).optional(),
  ACUBE_API_URL: z.url().default("https://api.acubeapi.com"),
  ACUBE_LOGIN_URL: z.url().default("https://common.api.acubeapi.com"),
  /** A-Cube's ed25519 public key (PEM, or 32 bytes in base64) that checks the signature of its callbacks. */
  ACUBE_WEBHOOK_PUBLIC_KEY: z.string().min(1).optional(),
  /** smtp://user:pass@host:port ; unset: mail stays in the outbox shown in the back office. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "SMTP_URL must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Bimbi Shop <negozio@example.it>"),
  /** ECB-style daily reference rates (XML or JSON); unset: stored or bundled rates only. */
  RATES_URL: z.url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** JSON lines for a log collector; `npm start` sets "text": short lines for a person at the terminal. */
  LOG_FORMAT: z.enum(["json", "text"]).default("json"),
  /** Trusted reverse-proxy hops in front of the app (Express `trust proxy`). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** `npm run stack` (server/ops/stack.ts): app processes behind nginx; unset: one per CPU core. */
  APP_PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
  /** Journeys only: a request's `x-test-clock` header (an ISO instant) sets the shop's clock for it. */
  TEST_CLOCK_HEADER: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  /** Seed the sample catalogue on first start (an empty database). */
  SEED_SAMPLE_DATA: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
});

export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment; throws ConfigError with one readable line per bad setting. */
export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Bad configuration: ${lines.join("; ")}`);
  }
  // A clock the visitor can move would let anyone rewrite order dates: never on a public address.
  if (parsed.data.TEST_CLOCK_HEADER && parsed.data.NODE_ENV === "production" && !isLocalAddress(publicUrlOf(parsed.data))) {
    throw new ConfigError("Bad configuration: TEST_CLOCK_HEADER is for tests only and is refused when PUBLIC_URL is not on this machine");
  }
  // Notifications that cannot be checked would leave every sent invoice without its outcome.
  if (
    (parsed.data.ACUBE_EMAIL || parsed.data.ACUBE_PASSWORD) &&
    !(parsed.data.ACUBE_EMAIL && parsed.data.ACUBE_PASSWORD && parsed.data.ACUBE_WEBHOOK_PUBLIC_KEY)
  ) {
    throw new ConfigError("Bad configuration: ACUBE_EMAIL, ACUBE_PASSWORD and ACUBE_WEBHOOK_PUBLIC_KEY go together");
  }
  return parsed.data;
}

/**
 * Who takes card payments: Stripe with a key; else the test-payment page, never in production unless
 * ALLOW_TEST_PAYMENTS says so; else nobody, and the card method is not offered.
 */
export function cardPaymentProviderOf(env: Pick<Env, "NODE_ENV" | "STRIPE_SECRET_KEY" | "ALLOW_TEST_PAYMENTS">): "stripe" | "test" | "none" {
  if (env.STRIPE_SECRET_KEY) return "stripe";
  return env.NODE_ENV !== "production" || env.ALLOW_TEST_PAYMENTS ? "test" : "none";
}

export function publicUrlOf(env: Env): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
}

/** Loopback names and addresses: links built on them reach no customer. */
export function isLocalAddress(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "::1" || host === "0.0.0.0";
}

/**
 * A production start on a localhost PUBLIC_URL would send gift-list and mail links nobody can open: it is
 * refused unless ALLOW_LOCALHOST_PUBLIC_URL=true says this is a local try-out or a test.
 */
export function refuseLocalPublicUrl(env: Env): void {
  if (env.NODE_ENV !== "production" || env.ALLOW_LOCALHOST_PUBLIC_URL) return;
  const publicUrl = publicUrlOf(env);
  if (!isLocalAddress(publicUrl)) return;
  throw new ConfigError(
    `Bad configuration: PUBLIC_URL: ${publicUrl} is this machine only; set PUBLIC_URL to the address customers use, or ALLOW_LOCALHOST_PUBLIC_URL=true for a local try-out or a test`,
  );
}
