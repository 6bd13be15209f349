/**
 * The only file that speaks A-Cube's SDI API (docs/decisions/0091-sdi-intermediary.md): a JWT from
 * `POST {login}/login`, the FatturaPA file to `POST {api}/invoices` (202 with the file's uuid), and the
 * check of the signature A-Cube puts on each callback (HTTP Message Signatures, ed25519, key id "acube",
 * over method, authority, target URI, date and the body's SHA-256 content digest), and
 * `GET {api}/invoices/{uuid}/notifications` for a file whose callback never came.
 */
import crypto from "node:crypto";
import type { Env } from "#server/env.ts";

export type SdiSender = {
  /** Hands a file to the intermediary; its id of the file. Throws SdiSendError when it did not take it. */
  send: (xml: string) => Promise<{ providerId: string }>;
  /** The SDI's notifications of a file as the intermediary holds them (objects as in its callbacks). Throws SdiSendError. */
  notificationsOf: (providerId: string) => Promise<unknown[]>;
};

/** `permanent`: the intermediary refused the file itself (4xx other than auth): sending it again cannot help. */
export class SdiSendError extends Error {
  override name = "SdiSendError";
  readonly permanent: boolean;
  constructor(message: string, options: { permanent: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.permanent = options.permanent;
  }
}

type AcubeEnv = Pick<Env, "ACUBE_EMAIL" | "ACUBE_PASSWORD" | "ACUBE_API_URL" | "ACUBE_LOGIN_URL">;

/** A sender when A-Cube's account is configured; null: the staff download the files and hand them over. */
export function createAcubeSender(env: AcubeEnv, options: { timeoutMs?: number } = {}): SdiSender | null {
  if (!env.ACUBE_EMAIL || !env.ACUBE_PASSWORD) return null;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const apiUrl = env.ACUBE_API_URL.replace(/\/$/, "");
  const loginUrl = env.ACUBE_LOGIN_URL.replace(/\/$/, "");
  let token: { value: string; until: number } | null = null;

  const call = async (url: string, init: RequestInit) => {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new SdiSendError(`A-Cube unreachable: ${error instanceof Error ? error.message : String(error)}`, { permanent: false, cause: error });
    }
  };

  const login = async (): Promise<string> => {
    if (token && token.until > Date.now()) return token.value;
    const response = await call(`${loginUrl}/login`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ email: env.ACUBE_EMAIL, password: env.ACUBE_PASSWORD }),
    });
    const body = (await response.json().catch(() => null)) as { token?: unknown } | null;
    if (!response.ok || typeof body?.token !== "string") throw new SdiSendError(`A-Cube login refused (${response.status})`, { permanent: false });
    // A-Cube's tokens last 24 hours; a fresh one well before.
    token = { value: body.token, until: Date.now() + 12 * 60 * 60_000 };
    return token.value;
  };

  /** A call with the account's token; a token A-Cube no longer takes is renewed once. */
  const authorized = async (url: string, init: RequestInit & { headers: Record<string, string> }) => {
    const attempt = async () =>
      call(url, { ...init, headers: { ...init.headers, authorization: `Bearer ${await login()}`, accept: "application/json" } });
    let response = await attempt();
    if (response.status === 401) {
      token = null;
      response = await attempt();
    }
    return response;
  };

  return {
    send: async (xml) => {
      const response = await authorized(`${apiUrl}/invoices`, { method: "POST", headers: { "content-type": "application/xml" }, body: xml });
      const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      if (response.ok && typeof body?.uuid === "string") return { providerId: body.uuid };
      const detail = describeRefusal(body) ?? `HTTP ${response.status}`;
      const permanent =
        response.status >= 400 && response.status < 500 && response.status !== 401 && response.status !== 408 && response.status !== 429;
      throw new SdiSendError(`A-Cube did not take the file: ${detail}`, { permanent });
    },
    notificationsOf: async (providerId) => {
      const response = await authorized(`${apiUrl}/invoices/${encodeURIComponent(providerId)}/notifications`, { method: "GET", headers: {} });
      const body = (await response.json().catch(() => null)) as unknown;
      if (!response.ok) throw new SdiSendError(`A-Cube did not list the file's notifications: HTTP ${response.status}`, { permanent: false });
      // A plain array, or JSON-LD's collection when A-Cube answers as Hydra.
      const members = Array.isArray(body) ? body : (body as Record<string, unknown> | null)?.["hydra:member"];
      if (!Array.isArray(members)) throw new SdiSendError("A-Cube's list of notifications was not a list", { permanent: false });
      return members as unknown[];
    },
  };
}

/** A-Cube answers problems as JSON (`detail`, or `violations` with `propertyPath` and `message`). */
function describeRefusal(body: Record<string, unknown> | null): string | null {
  if (!body) return null;
  if (Array.isArray(body.violations)) {
    const parts = body.violations
      .map((violation: { propertyPath?: unknown; message?: unknown }) => [violation.propertyPath, violation.message].filter(Boolean).join(": "))
      .filter(Boolean);
    if (parts.length > 0) return parts.join("; ").slice(0, 500);
  }
  return typeof body.detail === "string" ? body.detail.slice(0, 500) : null;
}

// ---------------------------------------------------------------- callbacks' signatures

/** An ed25519 public key as A-Cube publishes it: PEM, or the raw 32 bytes in base64. */
export function acubePublicKeyOf(text: string): crypto.KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith("-----BEGIN")) return crypto.createPublicKey(trimmed);
  const raw = Buffer.from(trimmed, "base64");
  if (raw.length !== 32) throw new Error("the ed25519 public key must be 32 bytes in base64, or PEM");
  // SubjectPublicKeyInfo of an Ed25519 key: this fixed prefix, then the 32 bytes.
  return crypto.createPublicKey({ key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]), format: "der", type: "spki" });
}

const signedComponents = ["@method", "@authority", "@target-uri", "date", "content-digest"] as const;

/** The RFC 9421 signature base of a callback: one line per covered component, then the parameters. */
export function callbackSignatureBase(args: { method: string; targetUri: string; date: string; contentDigest: string; params: string }): string {
  const url = new URL(args.targetUri);
  const values: Record<(typeof signedComponents)[number], string> = {
    "@method": args.method.toUpperCase(),
    "@authority": url.host,
    "@target-uri": args.targetUri,
    date: args.date,
    "content-digest": args.contentDigest,
  };
  return [...signedComponents.map((name) => `"${name}": ${values[name]}`), `"@signature-params": ${args.params}`].join("\n");
}

export const contentDigestOf = (body: string) => `sha-256=:${crypto.createHash("sha256").update(body).digest("base64")}:`;

/** Signature headers are fresh for this long: an older callback is refused (A-Cube sends it again). */
export const callbackMaxAgeSeconds = 300;

/**
 * Whether a callback carries A-Cube's valid signature over this body, at this address, made in the last
 * five minutes. The target URI is the shop's public address of the callback (behind nginx, the request's
 * own host may differ).
 */
export function verifyAcubeCallback(args: {
  publicKey: crypto.KeyObject;
  method: string;
  targetUri: string;
  headers: Headers;
  body: string;
  now: Date;
}): boolean {
  const signatureInput = args.headers.get("signature-input");
  const signature = args.headers.get("signature");
  const contentDigest = args.headers.get("content-digest");
  const date = args.headers.get("date");
  if (!signatureInput || !signature || !contentDigest || !date) return false;
  if (contentDigest !== contentDigestOf(args.body)) return false;
  const input = /^([A-Za-z0-9_-]+)=(\(([^)]*)\)(;.*)?)$/.exec(signatureInput.trim());
  if (!input) return false;
  const [, label, params, covered, rest = ""] = input;
  if (covered !== signedComponents.map((name) => `"${name}"`).join(" ")) return false;
  if (!/;keyid="acube"/.test(rest) || !/;alg="ed25519"/.test(rest)) return false;
  const created = Number(/;created=(\d+)/.exec(rest)?.[1]);
  if (!Number.isFinite(created) || Math.abs(args.now.getTime() / 1000 - created) > callbackMaxAgeSeconds) return false;
  const value = new RegExp(`(?:^|,\\s*)${label}=:([A-Za-z0-9+/=]+):`).exec(signature)?.[1];
  if (!value) return false;
  const base = callbackSignatureBase({ method: args.method, targetUri: args.targetUri, date, contentDigest, params: params! });
  try {
    return crypto.verify(null, Buffer.from(base), args.publicKey, Buffer.from(value, "base64"));
  } catch {
    return false;
  }
}
