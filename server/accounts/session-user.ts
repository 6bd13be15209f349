import type { Auth } from "./auth";

export type Role = "customer" | "admin";

export type SessionUser = { id: string; name: string; email: string; role: Role; emailVerified: boolean };

/** What the header needs to show the account menu (root loader `user`). */
export type ShellUser = Pick<SessionUser, "name" | "email" | "role">;

/**
 * The person a request's headers belong to: the session cookie or `Authorization: Bearer <token>` (the
 * token better-auth returns in the `set-auth-token` header of a sign-in); null when neither is valid.
 */
export async function readSessionUser(auth: Auth, headers: Headers): Promise<SessionUser | null> {
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const { id, name, email, role, emailVerified } = session.user;
  return { id, name, email, role: role === "admin" ? "admin" : "customer", emailVerified };
}

export function toShellUser(user: SessionUser | null): ShellUser | null {
  return user ? { name: user.name, email: user.email, role: user.role } : null;
}
