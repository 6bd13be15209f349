/**
 * The production stack on one machine, locally: `npm run stack` (after `npm run build`). nginx on
 * HOST:PORT in front of APP_PROCESSES processes of the shop (ports PORT+1 to PORT+N) on PostgreSQL,
 * with the site configuration production uses (nginx-config.ts, decision 0072). The load suite runs
 * the shop through it. In production systemd runs the processes and Debian's nginx the site
 * (docs/deploy.md); this file plays both parts for a try-out and for the tests.
 *
 * Needs DATABASE_URL (the embedded database belongs to one process; unset, the local PostgreSQL's
 * `bimbi_felici` database is used, and the server started when it is down) and nginx (Debian's
 * nginx-light). SIGTERM or SIGINT: nginx stops taking connections, the processes finish their requests.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ConfigError, publicUrlOf, readEnv, refuseLocalPublicUrl } from "../env.ts";
import { createLogger } from "../log.ts";
import { startAppProcesses, type AppProcesses } from "./app-processes.ts";
import { waitForHealth, waitForPort } from "./health.ts";
import { brotliStaticModule, nginxBin, renderNginxSite, renderStandaloneNginxConf, writeProxyPages, type NginxSiteOptions } from "./nginx-config.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

export type StackOptions = {
  /** The environment the shop's settings are read from (process.env by default). */
  environment?: Record<string, string | undefined>;
  /** nginx's own folder: its configuration, pages, logs and temporary files. */
  prefixDir: string;
  /** Port of the first app process; the others follow. Default: PORT + 1. */
  firstAppPort?: number;
  /** TLS and HTTP/2 on PORT with this certificate (a self-signed one in the tests). */
  tls?: { certificate: string; key: string };
  /** Where the app processes' stdout and stderr go. */
  output?: "inherit" | "ignore" | number;
};

export type Stack = {
  /** nginx's address: what customers would use. */
  url: string;
  /** `nginx/1.22.1`, as `nginx -v` says. */
  proxyVersion: string;
  processes: AppProcesses;
  /** nginx's access and error logs. */
  accessLog: string;
  errorLog: string;
  stop: () => Promise<void>;
};

/** `nginx/1.22.1`, or null when nginx is not installed. */
export async function nginxVersion(): Promise<string | null> {
  if (!fs.existsSync(nginxBin)) return null;
  const { stderr } = await run(nginxBin, ["-v"]);
  return /nginx\/[\d.]+/.exec(stderr)?.[0] ?? stderr.trim();
}

export type Nginx = { url: string; accessLog: string; errorLog: string; stop: () => Promise<void> };

/**
 * nginx with the shop's site (renderNginxSite's options but the pages folder, which is made here) under
 * `prefixDir`, until `stop`. Its configuration is checked first: a mistake is said in nginx's words.
 */
export async function startNginx(prefixDir: string, site: Omit<NginxSiteOptions, "proxyPagesDir" | "brotliStatic">): Promise<Nginx> {
  const prefix = path.resolve(prefixDir);
  for (const dir of ["temp", "pages"]) fs.mkdirSync(path.join(prefix, dir), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // nginx's workers drop root for `nobody`: they must reach the pages and write their temporary files.
  fs.chmodSync(prefix, 0o755);
  if (asRoot) {
    fs.chownSync(path.join(prefix, "temp"), 65534, 65534);
    for (let dir = path.dirname(prefix); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      if ((fs.statSync(dir).mode & 0o001) === 0)
        throw new ConfigError(`nginx's workers (nobody) cannot enter ${dir}: chmod o+x it or choose another folder`);
    }
  }
  await writeProxyPages(path.join(prefix, "pages"));
  const brotliStatic = fs.existsSync(brotliStaticModule);
  const confFile = path.join(prefix, "nginx.conf");
  fs.writeFileSync(
    confFile,
    renderStandaloneNginxConf({
      prefixDir: prefix,
      site: renderNginxSite({ ...site, proxyPagesDir: path.join(prefix, "pages"), brotliStatic }),
      brotliStatic,
      user: asRoot ? "nobody nogroup" : undefined,
      workers: 2,
    }),
  );
  await run(nginxBin, ["-t", "-q", "-p", prefix, "-c", confFile]).catch((error: Error & { stderr?: string }) => {
    throw new ConfigError(`nginx refused ${confFile}: ${error.stderr ?? error.message}`);
  });
  const errorLog = path.join(prefix, "error.log");
  const child = spawn(nginxBin, ["-p", prefix, "-c", confFile], { stdio: ["ignore", "ignore", "inherit"] });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const stop = async () => {
    process.removeListener("exit", killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    // SIGQUIT: finish the requests in flight, then stop.
    child.kill("SIGQUIT");
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(killer);
  };
  const host = !site.listen.host || site.listen.host === "0.0.0.0" ? "127.0.0.1" : site.listen.host;
  try {
    await waitForPort(host, site.listen.port, {
      name: "nginx",
      timeoutMs: 20_000,
      exited: () => (child.exitCode !== null ? `exit code ${child.exitCode}; see ${errorLog}` : null),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${site.tls ? "https" : "http"}://${host}:${site.listen.port}`, accessLog: path.join(prefix, "access.log"), errorLog, stop };
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const environment = options.environment ?? process.env;
  const env = readEnv(environment);
  refuseLocalPublicUrl(env);
  if (!env.DATABASE_URL) throw new ConfigError("Several app processes need DATABASE_URL: the embedded database can be opened by one process only.");
  if (!env.AUTH_SECRET)
    throw new ConfigError("Several app processes need AUTH_SECRET (32+ characters): each must read the sessions the others signed.");
  const proxyVersion = await nginxVersion();
  if (!proxyVersion) throw new ConfigError(`nginx is not installed (${nginxBin}): apt-get install nginx-light`);
  const log = createLogger(env.LOG_LEVEL).child({ component: "stack" });
  const count = env.APP_PROCESSES ?? os.availableParallelism();
  const firstAppPort = options.firstAppPort ?? env.PORT + 1;

  const processes = await startAppProcesses({
    count,
    firstPort: firstAppPort,
    output: options.output ?? "inherit",
    environment: {
      ...environment,
      PUBLIC_URL: publicUrlOf(env),
      // nginx is the one proxy in front of every process, and the only one it trusts (it listens on loopback).
      TRUST_PROXY: "1",
    },
    onExit: (fields) => log.warn(fields, "app process exited; starting it again"),
  });
  let nginx: Nginx;
  try {
    nginx = await startNginx(options.prefixDir, {
      serverName: "_",
      listen: { host: env.HOST, port: env.PORT },
      tls: options.tls,
      upstreams: processes.slots.map((slot) => ({ host: "127.0.0.1", port: slot.port })),
      clientDir: path.join(root, "build/client"),
      mediaDir: env.MEDIA_S3_BUCKET ? null : (env.MEDIA_DIR ?? path.join(env.DATA_DIR, "media")),
    });
    if (!options.tls) await waitForHealth(nginx.url, { name: "nginx in front of the shop", timeoutMs: 30_000 });
  } catch (error) {
    await processes.stop();
    throw error;
  }
  log.info({ url: nginx.url, proxy: proxyVersion, processes: processes.slots.map((slot) => slot.port), publicUrl: publicUrlOf(env) }, "stack ready");

  return {
    url: nginx.url,
    proxyVersion,
    processes,
    accessLog: nginx.accessLog,
    errorLog: nginx.errorLog,
    stop: async () => {
      await nginx.stop();
      await processes.stop();
    },
  };
}

/** `npm run stack` without DATABASE_URL: the local PostgreSQL (started when down), database `bimbi_felici`. */
async function localPostgresUrl(): Promise<string> {
  const ready = () =>
    run("pg_isready", ["-h", "127.0.0.1", "-p", "5432"]).then(
      () => true,
      () => false,
    );
  if (!(await ready())) {
    const versions = fs.existsSync("/etc/postgresql") ? fs.readdirSync("/etc/postgresql") : [];
    if (versions.length === 0) throw new ConfigError("No DATABASE_URL and no local PostgreSQL (/etc/postgresql): set DATABASE_URL.");
    await run("pg_ctlcluster", ["--skip-systemctl-redirect", versions[0]!, "main", "start"]);
    for (let second = 0; second < 60 && !(await ready()); second += 1) await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const exists = await run("psql", [
    "-h",
    "127.0.0.1",
    "-U",
    "postgres",
    "-d",
    "postgres",
    "-tAc",
    "select 1 from pg_database where datname = 'bimbi_felici'",
  ]);
  if (exists.stdout.trim() !== "1") await run("createdb", ["-h", "127.0.0.1", "-U", "postgres", "bimbi_felici"]);
  return "postgres://postgres@127.0.0.1:5432/bimbi_felici";
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const main = async () => {
    const environment: Record<string, string | undefined> = { ...process.env };
    environment.DATABASE_URL ??= await localPostgresUrl();
    // One secret for every process; kept beside the data so a restart keeps the sessions.
    if (!environment.AUTH_SECRET) {
      const secretFile = path.join(root, "data/stack-auth-secret");
      if (!fs.existsSync(secretFile)) {
        fs.mkdirSync(path.dirname(secretFile), { recursive: true });
        fs.writeFileSync(secretFile, (await import("node:crypto")).randomBytes(32).toString("hex"), { mode: 0o600 });
      }
      environment.AUTH_SECRET = fs.readFileSync(secretFile, "utf8").trim();
    }
    environment.PORT ??= "8080";
    environment.ALLOW_LOCALHOST_PUBLIC_URL ??= "true";
    return startStack({ environment, prefixDir: path.join(root, "data/stack-nginx") });
  };
  main().then(
    (stack) => {
      console.log(
        `The shop through ${stack.proxyVersion}: ${stack.url} (app processes ${stack.processes.slots.map((slot) => slot.port).join(", ")})`,
      );
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        void stack.stop().then(() => process.exit(0));
      };
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
    },
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : `The stack could not start: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
