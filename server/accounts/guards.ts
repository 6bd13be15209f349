/**
 * Who is asking. Every protected loader AND action calls one of these itself: loaders run in
 * parallel, so a parent route's check protects nothing below it (STACK.md).
 *
 *   const user = await requireUser(context, request);   // 401 page when logged out
 *   const admin = await requireAdmin(context, request); // 401 logged out, 403 for customers
 *
 * A session comes from the session cookie or from `Authorization: Bearer <token>` (the token
 * better-auth returns in the `set-auth-token` header of a sign-in).
 */
import { data, type RouterContextProvider } from "react-router";
import { shopContext } from "#server/http/context.ts";

export type Role = "customer" | "admin";

export type SessionUser = { id: string; name: string; email: string; role: Role; emailVerified: boolean };

/** What the header needs to show the account menu (root loader `user`). */
export type ShellUser = Pick<SessionUser, "name" | "email" | "role">;

type Context = Readonly<RouterContextProvider>;

export async function getSessionUser(context: Context, request: Request): Promise<SessionUser | null> {
  const { auth } = context.get(shopContext);
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const { id, name, email, role, emailVerified } = session.user;
  return { id, name, email, role: role === "admin" ? "admin" : "customer", emailVerified };
}

export function toShellUser(user: SessionUser | null): ShellUser | null {
  return user ? { name: user.name, email: user.email, role: user.role } : null;
}

export async function requireUser(context: Context, request: Request): Promise<SessionUser> {
  const user = await getSessionUser(context, request);
  if (!user) throw data(null, { status: 401 });
  return user;
}

export async function requireAdmin(context: Context, request: Request): Promise<SessionUser> {
  const user = await requireUser(context, request);
  if (user.role !== "admin") throw data(null, { status: 403 });
  return user;
}
