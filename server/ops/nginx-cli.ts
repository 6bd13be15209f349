/**
 * `npm run proxy:config -- [options]`: prints the nginx site for production (nginx-config.ts) and, with
 * `--pages DIR`, writes the pages nginx answers with itself (413, 429, 502-504) into DIR. The defaults are
 * the layout docs/deploy.md describes; deploy/nginx/bimbi-felici.conf is this command's output, its
 * first line the exact command (a test renders it again and compares). Plain Node runs this file.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { brotliStaticModule, renderNginxSite, writeProxyPages, type NginxSiteOptions } from "./nginx-config.ts";

/** The site's description from the command's arguments (defaults: docs/deploy.md's layout). */
export function siteOptionsFromArgs(args: readonly string[]): { site: NginxSiteOptions; pagesDir: string | undefined } {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: {
      "server-name": { type: "string", default: "www.example.it" },
      port: { type: "string", default: "443" },
      "redirect-port": { type: "string", default: "80" },
      certificate: { type: "string" },
      key: { type: "string" },
      "no-tls": { type: "boolean", default: false },
      processes: { type: "string", default: "4" },
      "first-port": { type: "string", default: "3001" },
      "app-dir": { type: "string", default: "/srv/bimbi-felici" },
      "media-dir": { type: "string" },
      "media-in-bucket": { type: "boolean", default: false },
      "pages-dir": { type: "string", default: "/srv/bimbi-felici/proxy-pages" },
      "brotli-static": { type: "boolean", default: fs.existsSync(brotliStaticModule) },
      "no-brotli-static": { type: "boolean", default: false },
      pages: { type: "string" },
    },
  });
  const serverName = values["server-name"];
  const number = (name: string, value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > 65_535) throw new Error(`--${name}: not a port or a count: ${value}`);
    return parsed;
  };
  const processes = number("processes", values.processes);
  const firstPort = number("first-port", values["first-port"]);
  const appDir = values["app-dir"];
  return {
    site: {
      serverName,
      listen: { port: number("port", values.port) },
      tls: values["no-tls"]
        ? undefined
        : {
            certificate: values.certificate ?? `/etc/letsencrypt/live/${serverName}/fullchain.pem`,
            key: values.key ?? `/etc/letsencrypt/live/${serverName}/privkey.pem`,
            redirectPort: number("redirect-port", values["redirect-port"]),
          },
      upstreams: Array.from({ length: processes }, (_, index) => ({ host: "127.0.0.1", port: firstPort + index })),
      clientDir: path.join(appDir, "build/client"),
      mediaDir: values["media-in-bucket"] ? null : (values["media-dir"] ?? path.join(appDir, "data/media")),
      proxyPagesDir: values["pages-dir"],
      brotliStatic: values["brotli-static"] && !values["no-brotli-static"],
    },
    pagesDir: values.pages,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  try {
    const { site, pagesDir } = siteOptionsFromArgs(args);
    if (pagesDir) await writeProxyPages(pagesDir);
    // The command again, without where it wrote the pages: the file is the same whatever that was.
    const shown = args.filter((arg, index) => !arg.startsWith("--pages") && args[index - 1] !== "--pages");
    process.stdout.write(`# npm run proxy:config --${shown.map((arg) => ` ${arg}`).join("")}\n`);
    process.stdout.write(renderNginxSite(site));
  } catch (error) {
    console.error(`proxy:config: ${(error as Error).message}`);
    process.exit(1);
  }
}
