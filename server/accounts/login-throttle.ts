/**
 * Limits on guessing: login and password-reset attempts per account and per client address,
 * counted in the database (rate_limits) so that every app process sees the same counters.
 * Pure rules: the keys, the limits and the window arithmetic. The counting is in
 * login-throttle.service.ts; better-auth's hooks call it (auth-hooks.ts).
 */
import crypto from "node:crypto";

export type ThrottleRule = { max: number; windowMs: number };

export const throttleRules = {
  /** The 6th wrong password for one account within a minute is refused. */
  loginAccount: { max: 5, windowMs: 60_000 },
  /** One address trying many accounts (shared addresses: offices, mobile carriers, so not too low). */
  loginIp: { max: 30, windowMs: 60_000 },
  resetAccount: { max: 3, windowMs: 15 * 60_000 },
  resetIp: { max: 10, windowMs: 15 * 60_000 },
  signUpIp: { max: 30, windowMs: 60 * 60_000 },
  verificationAccount: { max: 3, windowMs: 15 * 60_000 },
} as const satisfies Record<string, ThrottleRule>;

export type ThrottleRuleName = keyof typeof throttleRules;

/** E-mail addresses are compared case-insensitively and never stored in clear in the counters. */
export function hashEmail(email: string): string {
  return crypto.createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

export function accountThrottleKey(action: "login" | "reset" | "verification", email: string): string {
  return `${action}:account:${hashEmail(email)}`;
}

export function ipThrottleKey(action: "login" | "reset" | "sign-up", ip: string): string {
  return `${action}:ip:${ip}`;
}

export type WindowState = { count: number; windowStartMs: number };

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

export function judgeWindow(state: WindowState, nowMs: number, rule: ThrottleRule): ThrottleVerdict {
  if (state.count <= rule.max) return { allowed: true };
  return { allowed: false, retryAfterMs: Math.max(0, state.windowStartMs + rule.windowMs - nowMs) };
}
