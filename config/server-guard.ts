import { denyImports } from "vite-env-only";

/**
 * server/ is never shipped to the browser: any client-bundle import of it, or of a server-only
 * package, fails the build. Route modules may import server/ only from loaders and actions,
 * which React Router strips from the client bundle. Proven by config/server-guard.test.ts.
 */
export function serverGuard() {
  return denyImports({
    client: {
      specifiers: [
        /^#server\//,
        /^node:/,
        "pg",
        "@electric-sql/pglite",
        /^drizzle-orm/,
        /^better-auth\/(node|adapters)/,
        "@better-auth/drizzle-adapter",
        "nodemailer",
        "stripe",
        "sharp",
        "pino",
        "express",
      ],
      files: ["**/server/**"],
    },
  });
}
