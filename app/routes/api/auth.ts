import { shopContext } from "#server/http/context.ts";
import type { Route } from "./+types/auth";

/** better-auth's own endpoints under /api/auth/* (sign-in, sign-up, sessions, OIDC callbacks). */
export function loader({ request, context }: Route.LoaderArgs) {
  return context.get(shopContext).auth.handler(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return context.get(shopContext).auth.handler(request);
}
