/**
 * A session read for the answers every signed-in page asks for (her personal part, `/personal`, and a kept page
 * filled in for her): what better-auth's getSession does when all it does is read, in one query and one HMAC,
 * and better-auth itself for everything else (decision 0109). better-auth still owns sessions: it signs the
 * cookie, creates, refreshes and ends them; this only reads a valid one as it would.
 *
 * Left to better-auth, so the outcome and its writes are its own: a bearer token, a "don't remember me" or cached
 * session cookie, a session cookie given twice, badly signed, naming no session (or one whose user is gone),
 * expired (it deletes it), or due for its refresh (it moves the expiry on).
 */
import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { preparedPerDatabase } from "#server/db/prepared.ts";
import { sessions, users } from "#server/db/schema.ts";
import type { Auth } from "./auth";
import { readSessionUser, type SessionUser } from "./session-user";

/** The session of a token and its user, in one query. */
const sessionOfToken = preparedPerDatabase((db) =>
  db
    .select({
      expiresAt: sessions.expiresAt,
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      emailVerified: users.emailVerified,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.token, sql.placeholder("token")))
    .prepare("session_of_token"),
);

type SessionRules = {
  tokenCookie: string;
  /** Cookies whose presence better-auth acts on: "don't remember me" and the cached session (possibly in chunks). */
  otherCookies: string[];
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
};

const rulesOfAuth = new WeakMap<Auth, Promise<SessionRules>>();

function rulesOf(auth: Auth): Promise<SessionRules> {
  let rules = rulesOfAuth.get(auth);
  if (!rules) {
    rules = auth.$context.then((context) => ({
      tokenCookie: context.authCookies.sessionToken.name,
      otherCookies: [context.authCookies.dontRememberToken.name, context.authCookies.sessionData.name],
      secret: context.secret,
      expiresInMs: context.sessionConfig.expiresIn * 1000,
      updateAgeMs: context.sessionConfig.updateAge * 1000,
    }));
    rulesOfAuth.set(auth, rules);
  }
  return rules;
}

/** The cookies of a Cookie header as better-call reads them: trimmed, unquoted, decoded; every value of a name. */
function cookiesOf(header: string): Map<string, string[]> {
  const cookies = new Map<string, string[]>();
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    let value = part.slice(at + 1).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      value = value.includes("%") ? decodeURIComponent(value) : value;
    } catch {
      // better-call keeps an undecodable value as it is.
    }
    const name = part.slice(0, at).trim();
    cookies.set(name, [...(cookies.get(name) ?? []), value]);
  }
  return cookies;
}

/**
 * The token of a `token.signature` cookie value signed with `secret` (HMAC-SHA-256, base64 as better-call writes
 * it); null when not (better-auth then decides: it also takes other spellings of the same signature).
 */
function verifiedToken(value: string, secret: string): string | null {
  const at = value.lastIndexOf(".");
  if (at < 1) return null;
  const token = value.slice(0, at);
  const signature = Buffer.from(value.slice(at + 1));
  const expected = Buffer.from(crypto.createHmac("sha256", secret).update(token).digest("base64"));
  return signature.length === expected.length && crypto.timingSafeEqual(signature, expected) ? token : null;
}

/** The person the request's headers belong to, as `readSessionUser` gives her (null when no one). */
export async function readSessionUserQuickly(services: { auth: Auth; db: Db }, headers: Headers, now = Date.now()): Promise<SessionUser | null> {
  const byBetterAuth = () => readSessionUser(services.auth, headers);
  if (headers.has("authorization")) return byBetterAuth();
  const rules = await rulesOf(services.auth);
  const cookies = cookiesOf(headers.get("cookie") ?? "");
  const given = cookies.get(rules.tokenCookie);
  if ([...cookies.keys()].some((name) => rules.otherCookies.some((other) => name.startsWith(other)))) return byBetterAuth();
  // No session cookie: better-auth answers no one without reading anything.
  if (!given) return null;
  const token = given.length === 1 ? verifiedToken(given[0]!, rules.secret) : null;
  if (token === null) return byBetterAuth();
  const [row] = await sessionOfToken(services.db).execute({ token });
  if (!row) return byBetterAuth();
  const expiresAt = row.expiresAt.getTime();
  const refreshDue = expiresAt - rules.expiresInMs + rules.updateAgeMs <= now;
  if (expiresAt < now || refreshDue) return byBetterAuth();
  return { id: row.id, name: row.name, email: row.email, role: row.role === "admin" ? "admin" : "customer", emailVerified: row.emailVerified };
}
