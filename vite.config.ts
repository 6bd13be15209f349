import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { denyImports } from "vite-env-only";

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    // The server bundle's entry is our Express app, which itself loads the React Router build.
    rollupOptions: isSsrBuild ? { input: "./server/http/app.ts" } : undefined,
  },
  plugins: [
    // server/ is never shipped to the browser: a client import of it fails the build.
    denyImports({
      client: {
        specifiers: [/^#server\//, /^node:/, "pg", "@electric-sql/pglite", "drizzle-orm", "better-auth/node", "nodemailer", "stripe", "sharp"],
        files: ["**/server/**"],
      },
    }),
    tailwindcss(),
    reactRouter(),
  ],
}));
