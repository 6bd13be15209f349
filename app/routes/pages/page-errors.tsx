import { ErrorPage } from "#app/ui/error-page.tsx";
import type { Route } from "./+types/page-errors";

/**
 * The error page of every page, inside the shop's frame. It sits below the root, not in it: when an action
 * throws, React Router runs only the loaders above the boundary that catches it, so with the boundary on the
 * root a failed post had no shell, no title and no messages (docs/decisions/0041-error-pages-below-the-root.md).
 * No component: the layout renders its child page as it is.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
