import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { serverGuard } from "./config/server-guard.ts";

export default defineConfig({
  environments: {
    // The server bundle's entry is our Express app (server/http/app.ts), which embeds the
    // React Router build; React Router 8 reads the SSR input from here.
    ssr: { build: { rolldownOptions: { input: "./server/http/app.ts" } } },
  },
  plugins: [serverGuard(), tailwindcss(), reactRouter()],
});
