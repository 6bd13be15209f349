/**
 * Who is asking. Every protected loader AND action calls one of these itself: loaders run in
 * parallel, so a parent route's check protects nothing below it.
 *
 *   const user = await requireUser(context, request);   // 401 page when logged out
 *   const admin = await requireAdmin(context, request); // 401 logged out, 403 for customers
 *
 * A session comes from the session cookie or from `Authorization: Bearer <token>`
 * (server/accounts/session-user.ts).
 */
import { data, type RouterContextProvider } from "react-router";
import { readSessionUser, type SessionUser } from "#server/accounts/session-user.ts";
import { shopContext } from "./context";

type Context = Readonly<RouterContextProvider>;

/** Sessions read by a page's loaders, per request: the root and the page's own loader ask for it at once. */
const sessionUsersOfPages = new WeakMap<Request, Promise<SessionUser | null>>();

export async function getSessionUser(context: Context, request: Request): Promise<SessionUser | null> {
  // An action may sign in or out: it reads the session itself each time it asks.
  if (request.method !== "GET") return readSessionUser(context.get(shopContext).auth, request.headers);
  let sessionUser = sessionUsersOfPages.get(request);
  if (!sessionUser) {
    sessionUser = readSessionUser(context.get(shopContext).auth, request.headers);
    sessionUsersOfPages.set(request, sessionUser);
  }
  return sessionUser;
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
