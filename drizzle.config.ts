import { defineConfig } from "drizzle-kit";

// `drizzle-kit generate` only: migrations are applied from code (server/db/migrate.ts),
// because drizzle-kit cannot load PGlite's extensions and `push` exits 0 on errors.
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema.ts",
  out: "./server/db/migrations",
  casing: "snake_case",
});
