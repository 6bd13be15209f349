import fs from "node:fs";
import path from "node:path";
import { build } from "vite";
import { expect, test } from "vitest";
import { serverGuard } from "./server-guard.ts";

// Builds a one-file browser bundle with the same guard as vite.config.ts.
async function buildClientEntry(source: string) {
  // Inside the project, so package.json "imports" (#app/*, #server/*) resolve as they do for the app.
  const cacheDir = path.resolve("node_modules/.cache");
  fs.mkdirSync(cacheDir, { recursive: true });
  const dir = fs.mkdtempSync(path.join(cacheDir, "server-guard-"));
  const entry = path.join(dir, "entry.ts");
  fs.writeFileSync(entry, source);
  return build({
    root: process.cwd(),
    logLevel: "silent",
    configFile: false,
    plugins: [serverGuard()],
    build: { write: false, lib: { entry, formats: ["es"], fileName: "entry" }, rollupOptions: { external: [] } },
  });
}

test("a browser bundle that imports server code fails the build", async () => {
  await expect(buildClientEntry(`import { applyPercentOff } from "#server/money.ts";\nconsole.log(applyPercentOff(100, 10));`)).rejects.toThrow(
    /Import denied[\s\S]*#server\/money\.ts/,
  );
});

test("a browser bundle of browser-safe code builds", async () => {
  await expect(buildClientEntry(`import { localeOfPath } from "#common/locale.ts";\nconsole.log(localeOfPath("/en"));`)).resolves.toBeDefined();
});
