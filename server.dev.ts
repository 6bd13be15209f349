// Development server: Vite in middleware mode, fresh server code on every request (HMR).
import { createServer } from "vite";
import type { ServerBuild } from "react-router";

const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
const app = (await vite.ssrLoadModule("./server/http/app.ts")) as typeof import("./server/http/app");
await app.startShop({
  devMiddlewares: vite.middlewares,
  env: { ...(await import("./server/env")).readEnv({ NODE_ENV: "development", ...process.env }) },
  build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
});
