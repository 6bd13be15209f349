import { data } from "react-router";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/not-found";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: [] } satisfies MessagesHandle;

/**
 * Any other /admin address: "not found" inside the back office's frame, for staff only. A guest or a
 * customer gets 401/403 as on every admin page, so the addresses tell outsiders nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  throw data(null, { status: 404 });
}

export default function AdminNotFound() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
