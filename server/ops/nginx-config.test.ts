import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";
import { appKeepAliveMs } from "../http/keep-alive";
import { siteOptionsFromArgs } from "./nginx-cli";
import { brotliStaticModule, nginxBin as nginx, proxyPages, renderNginxSite, renderStandaloneNginxConf, writeProxyPages } from "./nginx-config";

const root = path.resolve(import.meta.dirname, "../..");
const shipped = path.join(root, "deploy/nginx/bimbi-felici.conf");
// .ci/run installs nginx; elsewhere the syntax check needs it too, and says so rather than passing quietly.
const nginxMissing = !fs.existsSync(nginx) && process.env.CI !== "true";

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

test("the shipped nginx site is what its first line's command renders today", () => {
  const text = fs.readFileSync(shipped, "utf8");
  const [command, ...rest] = text.split("\n");
  expect(command).toMatch(/^# npm run proxy:config --/);
  const args = command!
    .replace(/^# npm run proxy:config --\s*/, "")
    .split(/\s+/)
    .filter(Boolean);
  expect(rest.join("\n"), "run the command on the file's first line again: npm run proxy:config -- … > deploy/nginx/bimbi-felici.conf").toBe(
    renderNginxSite(siteOptionsFromArgs(args).site),
  );
});

test("the production site: TLS with HTTP/2 and a redirect from plain HTTP, unknown hosts closed, four processes", () => {
  const site = renderNginxSite(siteOptionsFromArgs(["--server-name", "www.bimbifelici.it", "--no-brotli-static"]).site);
  expect(site).toContain("listen 443 ssl http2;");
  expect(site).toContain("return 301 https://$host$request_uri;");
  expect(site).toMatch(/listen 443 ssl http2 default_server;\n {4}listen \[::\]:443 ssl http2 default_server;\n {4}ssl_reject_handshake on;/);
  expect(site.match(/server 127\.0\.0\.1:300\d max_fails=1/g)).toHaveLength(4);
  expect(site).toContain('ssl_certificate "/etc/letsencrypt/live/www.bimbifelici.it/fullchain.pem";');
  expect(site).not.toContain("brotli_static");
  // The client's own X-Forwarded-For never reaches the app.
  expect(site).toContain("proxy_set_header X-Forwarded-For $remote_addr;");
  expect(site).not.toContain("$proxy_add_x_forwarded_for");
});

test("nginx drops an idle connection to a process before the process would: a POST is never sent on one being closed", () => {
  const site = renderNginxSite(siteOptionsFromArgs(["--server-name", "www.bimbifelici.it"]).site);
  const upstream = site.match(/upstream bimbi_felici_app \{[^}]*\}/)![0];
  const proxyIdleSeconds = Number(upstream.match(/keepalive_timeout (\d+)s;/)![1]);
  expect(proxyIdleSeconds * 1000).toBeLessThan(appKeepAliveMs);
});

test("pictures in a bucket: /media goes to the app, nothing is read from a folder", () => {
  const site = renderNginxSite(siteOptionsFromArgs(["--media-in-bucket", "--no-tls", "--port", "8080"]).site);
  expect(site).not.toContain("location /media/");
  expect(site).toContain("listen 8080;");
});

test("a folder name that would break out of its quotes is refused", () => {
  expect(() => renderNginxSite(siteOptionsFromArgs(["--app-dir", '/srv/shop"; include /etc/passwd; #']).site)).toThrow(/unsafe characters/);
  expect(() => siteOptionsFromArgs(["--processes", "0"])).toThrow(/--processes/);
});

test("nginx's own pages: 413, 414, 429, 431 and 502-504 in Italian and English, JSON for the API in the caller's language", () => {
  const pages = proxyPages();
  for (const lang of ["it", "en"] as const) {
    const messages = lang === "it" ? messagesIt : messagesEn;
    expect(pages.get(`${lang}/429`)).toContain(`<html lang="${lang}">`);
    expect(pages.get(`${lang}/429`)).toContain(messages.proxy.tooManyRequests.body);
    expect(pages.get(`${lang}/413`)).toContain(messages.errors.tooLargeBody.replaceAll("'", "&#39;"));
    for (const status of [502, 503, 504]) expect(pages.get(`${lang}/${status}`)).toContain(messages.serviceUnavailable.retry);
    expect(JSON.parse(pages.get(`api-${lang}/429`)!)).toEqual({
      error: { code: "too-many-requests", message: messages.api.errors["too-many-requests"] },
    });
    expect(JSON.parse(pages.get(`api-${lang}/502`)!).error.code).toBe("service-unavailable");
    for (const status of [414, 431]) {
      expect(pages.get(`${lang}/${status}`)).toContain(`<html lang="${lang}">`);
      expect(JSON.parse(pages.get(`api-${lang}/${status}`)!)).toEqual({
        error: { code: "headers-too-large", message: messages.api.errors["headers-too-large"] },
      });
    }
  }
});

test.skipIf(nginxMissing)("nginx accepts the production site, TLS included (nginx -t)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-nginx-t-"));
  scratch.push(dir);
  const certificate = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout", key, "-out", certificate],
    {
      stdio: "ignore",
    },
  );
  await writeProxyPages(path.join(dir, "pages"));
  fs.mkdirSync(path.join(dir, "temp"));
  const brotliStatic = fs.existsSync(brotliStaticModule);
  const { site } = siteOptionsFromArgs([
    "--server-name",
    "www.example.it",
    "--certificate",
    certificate,
    "--key",
    key,
    "--app-dir",
    root,
    "--pages-dir",
    path.join(dir, "pages"),
    brotliStatic ? "--brotli-static" : "--no-brotli-static",
  ]);
  fs.writeFileSync(path.join(dir, "nginx.conf"), renderStandaloneNginxConf({ prefixDir: dir, site: renderNginxSite(site), brotliStatic }));
  // -t reads every file and directive without binding a port.
  expect(() => execFileSync(nginx, ["-t", "-q", "-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: "pipe" })).not.toThrow();
});

const systemdAnalyze = "/usr/bin/systemd-analyze";

test.skipIf(!fs.existsSync(systemdAnalyze))("the shipped systemd units are valid (systemd-analyze verify)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-units-"));
  scratch.push(dir);
  const units = path.join(root, "deploy/systemd");
  for (const name of fs.readdirSync(units)) fs.copyFileSync(path.join(units, name), path.join(dir, name));
  fs.copyFileSync(path.join(dir, "bimbi-felici@.service"), path.join(dir, "bimbi-felici@3001.service"));
  let output = "";
  try {
    execFileSync(systemdAnalyze, ["verify", "--man=no", "bimbi-felici@3001.service", "bimbi-felici-backup.service", "bimbi-felici-backup.timer"], {
      cwd: dir,
      stdio: "pipe",
    });
  } catch (error) {
    output = String((error as { stderr?: Buffer }).stderr ?? error);
  }
  // The shop is not installed in /srv on this machine: that one complaint is expected, nothing else.
  const problems = output.split("\n").filter((line) => line.trim() && !/Command \/srv\/bimbi-felici\/\S+ is not executable/.test(line));
  expect(problems).toEqual([]);
});
