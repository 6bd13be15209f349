/**
 * nginx in front of the shop's app processes (docs/deploy.md, decision 0072): the site configuration,
 * rendered from one description so that the shipped example (deploy/nginx/bimbi-felici.conf), the local
 * stack (stack.ts) and the load suite run the same rules. It goes inside nginx's `http {}` block, as
 * Debian's sites-enabled files do. Plain Node runs this file (no build step).
 *
 * - Static: the build's hashed assets (brotli and gzip copies written by the build) and the product
 *   pictures on disk, served by nginx with long cache headers; a sample picture not drawn yet goes to
 *   the app, which draws it.
 * - Bodies: page forms 1 MB, the API 128 KB, product pictures 9 MB, the CSV import 41 MB; more is
 *   refused with 413 before any app process reads a byte.
 * - Per client address: login and password forms, search, gift-list codes and the API are rate limited
 *   (429 with Retry-After), beside the app's own throttles.
 * - Health: a process that refuses connections or times out is left out for a few seconds (passive
 *   checks, `max_fails`), and a request it never received goes to another. A form post it received is
 *   never sent twice: the customer gets the "try again" page, and the checkout's idempotency key makes
 *   the retry find the order.
 * - The client's address: X-Forwarded-For is replaced with the connecting address, never appended to,
 *   so the app (TRUST_PROXY=1, listening on loopback) sees an address no client can forge.
 */
import path from "node:path";
import { proxyUpstreamIdleSeconds } from "../http/keep-alive.ts";
import { smallPageHtml, unavailableAnswer } from "../http/unavailable.ts";
import messagesEn from "#messages/en.json" with { type: "json" };
import messagesIt from "#messages/it.json" with { type: "json" };

export type Upstream = { host: string; port: number };

/** Debian's nginx and its brotli_static module (libnginx-mod-http-brotli-static). */
export const nginxBin = "/usr/sbin/nginx";
export const brotliStaticModule = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

export type NginxSiteOptions = {
  /** `server_name`: the public host name (`www.example.it`), or `_` for any. */
  serverName: string;
  listen: { host?: string; port: number };
  /** TLS with HTTP/2 on `listen.port`; without it plain HTTP/1.1 (a local stack behind a TLS terminator). */
  tls?: { certificate: string; key: string; redirectPort?: number };
  upstreams: readonly Upstream[];
  /** The build's browser folder (`build/client`). */
  clientDir: string;
  /** Product pictures on disk (MEDIA_DIR); null when they live in a bucket and the app streams them. */
  mediaDir: string | null;
  /** Where `writeProxyPages` wrote the refusal pages. */
  proxyPagesDir: string;
  /** Debian's libnginx-mod-http-brotli-static: serve the build's `.br` copies. */
  brotliStatic: boolean;
};

/** Request bodies nginx lets through, per kind of route (the app's own limits are below these). */
export const proxyBodyLimits = { forms: "1m", api: "128k", stripeWebhook: "1m", pictures: "9m", csvImport: "41m" } as const;

/** Per client address: sustained rate and burst. Generous for a person, a wall for a script. */
export const proxyRateLimits = {
  login: { rate: "10r/m", burst: 10 },
  search: { rate: "5r/s", burst: 20 },
  giftListCode: { rate: "30r/m", burst: 30 },
  api: { rate: "20r/s", burst: 40 },
} as const;

/** Seconds a process is left out after a failed connection, and told to clients in Retry-After. */
const failTimeoutSeconds = 5;
const retryAfterSeconds = 5;

// 414 and 431: a request line or headers past nginx's buffers, refused before the app (the app's own answer:
// server/http/unreadable-requests.ts). nginx calls the second 494 and would send its own 400 page.
const proxyPageStatuses = [413, 414, 429, 431, 502, 503, 504] as const;
type ProxyPageStatus = (typeof proxyPageStatuses)[number];

/** The pages nginx answers with itself: file path (relative to the pages folder) -> content. */
export function proxyPages(): Map<string, string> {
  const pages = new Map<string, string>();
  for (const lang of ["it", "en"] as const) {
    const messages = lang === "en" ? messagesEn : messagesIt;
    const home = lang === "en" ? "/en" : "/";
    const pathname = lang === "en" ? "/en/" : "/";
    for (const status of proxyPageStatuses) {
      const html =
        status === 413
          ? smallPageHtml(lang, messages.errors.badRequestTitle, messages.errors.tooLargeBody, { text: messages.notFound.home, href: home })
          : status === 414 || status === 431
            ? smallPageHtml(lang, messages.errors.badRequestTitle, messages.errors.headersTooLargeBody, { text: messages.notFound.home, href: home })
            : status === 429
              ? smallPageHtml(lang, messages.proxy.tooManyRequests.title, messages.proxy.tooManyRequests.body, {
                  text: messages.serviceUnavailable.retry,
                  href: "",
                })
              : unavailableAnswer(pathname, "text/html", status).body;
      pages.set(`${lang}/${status}`, html);
    }
  }
  for (const lang of ["it", "en"] as const) {
    for (const status of proxyPageStatuses) pages.set(`api-${lang}/${status}`, apiRefusal(lang, status));
  }
  return pages;
}

/** The API's `{ error: { code, message } }`, in the language its Accept-Language asks for (Italian by default). */
function apiRefusal(lang: "it" | "en", status: ProxyPageStatus): string {
  const { errors } = (lang === "en" ? messagesEn : messagesIt).api;
  if (status === 413) return JSON.stringify({ error: { code: "payload-too-large", message: errors["payload-too-large"] } });
  if (status === 429) return JSON.stringify({ error: { code: "too-many-requests", message: errors["too-many-requests"] } });
  if (status === 414 || status === 431) return JSON.stringify({ error: { code: "headers-too-large", message: errors["headers-too-large"] } });
  return JSON.stringify({ error: { code: "service-unavailable", message: errors["service-unavailable"] } });
}

/** Writes `proxyPages()` into `dir` (created when missing). */
export async function writeProxyPages(dir: string): Promise<void> {
  const fs = await import("node:fs/promises");
  for (const [name, content] of proxyPages()) {
    await fs.mkdir(path.join(dir, path.dirname(name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
}

/** nginx strings: quoted, with the two characters that would end or escape them refused. */
function quoted(value: string): string {
  if (/["\\\n$;{}]/.test(value)) throw new Error(`nginx config: unsafe characters in ${JSON.stringify(value)}`);
  return `"${value}"`;
}
const dirOf = (dir: string) => quoted(`${path.resolve(dir)}/`);

/** Everything a location that hands requests to the app needs. */
function toTheApp(indent: string): string {
  return [
    "proxy_pass http://bimbi_felici_app;",
    // Kept-alive connections to the processes: no new TCP handshake per request.
    "proxy_http_version 1.1;",
    'proxy_set_header Connection "";',
    // With its port: the app compares a form's Origin with the address the browser used. Names other than
    // server_name never get here (the default server below closes them).
    "proxy_set_header Host $http_host;",
    // Replaced, never appended: what a client sends in X-Forwarded-For is dropped here.
    "proxy_set_header X-Forwarded-For $remote_addr;",
    "proxy_set_header X-Forwarded-Proto $scheme;",
    // Pages stream (the first screen before the deferred data): pass bytes on as they come.
    "proxy_buffering off;",
    // A request no process received goes to another; one a process received is never sent twice.
    "proxy_next_upstream error timeout;",
    "proxy_next_upstream_tries 2;",
    "proxy_connect_timeout 2s;",
    // Longer than any page or checkout takes (a card checkout waits up to ~17 s on Stripe).
    "proxy_read_timeout 60s;",
    "proxy_send_timeout 60s;",
  ]
    .map((line) => `${indent}${line}`)
    .join("\n");
}

export function renderNginxSite(options: NginxSiteOptions): string {
  if (options.upstreams.length === 0) throw new Error("nginx config: no app processes");
  const listenHost = options.listen.host ? `${options.listen.host}:` : "";
  const listenOptions = options.tls ? " ssl http2" : "";
  // No address given: every IPv4 and IPv6 address, as Debian's default site listens.
  const listenOn = (port: number, extra = "") =>
    (options.listen.host ? [`${listenHost}${port}`] : [`${port}`, `[::]:${port}`]).map((address) => `    listen ${address}${extra};`).join("\n");
  const limits = proxyRateLimits;
  const lines: string[] = [];
  const add = (text: string) => lines.push(text);

  add(`# Bimbi Felici: nginx in front of ${options.upstreams.length} app processes (docs/deploy.md, docs/decisions/0072).
# Rendered by server/ops/nginx-config.ts; include it inside nginx's http {} block.

upstream bimbi_felici_app {
${options.upstreams.map((upstream) => `    server ${upstream.host}:${upstream.port} max_fails=1 fail_timeout=${failTimeoutSeconds}s;`).join("\n")}
    keepalive 32;
    # Shorter than a process keeps an idle connection (server/http/keep-alive.ts): nginx closes first.
    keepalive_timeout ${proxyUpstreamIdleSeconds}s;
}

# Rate-limit keys: the client's address where the rule applies, empty (not counted) elsewhere.
map "$request_method:$uri" $bimbi_login_key {
    default "";
    "~^POST:/(en/)?(login-register|forgot-password|reset-password)(\\.data)?$" $binary_remote_addr;
    "~^POST:/api/auth/" $binary_remote_addr;
}
map "$uri|$arg_search" $bimbi_search_key {
    default "";
    "~^/(en/)?search/suggest" $binary_remote_addr;
    "~^[^|]*\\|.+" $binary_remote_addr;
}
map "$uri|$arg_codice" $bimbi_gift_list_key {
    default "";
    "~^/(en/)?lista-nascita(\\.data)?\\|.+" $binary_remote_addr;
    "~^/(en/)?lista-nascita/" $binary_remote_addr;
}
map $uri $bimbi_api_key {
    default "";
    # Signed callbacks of the payment provider and the SDI's intermediary arrive in bursts from few addresses.
    "/api/payments/stripe/webhook" "";
    "/api/sdi/notifiche" "";
    "~^/api/" $binary_remote_addr;
}
limit_req_zone $bimbi_login_key zone=bimbi_login:10m rate=${limits.login.rate};
limit_req_zone $bimbi_search_key zone=bimbi_search:10m rate=${limits.search.rate};
limit_req_zone $bimbi_gift_list_key zone=bimbi_gift_list_code:10m rate=${limits.giftListCode.rate};
limit_req_zone $bimbi_api_key zone=bimbi_api:10m rate=${limits.api.rate};

# Refusal pages in the visitor's language, JSON for the API (written by writeProxyPages).
map "$uri|$http_accept_language" $bimbi_page_kind {
    default it;
    "~^/api/[^|]*\\|en" api-en;
    "~^/api/" api-it;
    "~^/en(/|\\||\\.data)" en;
}
`);
  if (options.serverName !== "_") {
    add(`# A Host that is not the shop's (scanners, DNS rebinding): the connection is closed without an answer.
server {
${listenOn(options.listen.port, `${listenOptions} default_server`)}
${options.tls ? "    ssl_reject_handshake on;\n" : ""}    server_name _;
    return 444;
}
`);
  }
  if (options.tls?.redirectPort) {
    add(`server {
${listenOn(options.tls.redirectPort)}
    server_name ${options.serverName};
    server_tokens off;
    # Certificate renewals: certbot certonly --webroot -w /var/www/html.
    location /.well-known/acme-challenge/ {
        root /var/www/html;
    }
    location / {
        return 301 https://$host$request_uri;
    }
}
`);
  }
  add(`server {
${listenOn(options.listen.port, listenOptions)}
    server_name ${options.serverName};
    server_tokens off;
${
  options.tls
    ? `    ssl_certificate ${quoted(path.resolve(options.tls.certificate))};
    ssl_certificate_key ${quoted(path.resolve(options.tls.key))};
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:bimbi_tls:10m;
    ssl_session_timeout 1d;
`
    : ""
}
    client_max_body_size ${proxyBodyLimits.forms};
    client_body_buffer_size 128k;

    limit_req_status 429;
    limit_req zone=bimbi_login burst=${limits.login.burst} nodelay;
    limit_req zone=bimbi_search burst=${limits.search.burst} nodelay;
    limit_req zone=bimbi_gift_list_code burst=${limits.giftListCode.burst} nodelay;
    limit_req zone=bimbi_api burst=${limits.api.burst} nodelay;

    # Answers the app did not compress (it compresses pages itself; nginx passes those through).
    gzip on;
    gzip_proxied any;
    gzip_vary on;
    gzip_comp_level 5;
    gzip_min_length 1024;
    gzip_types text/css text/javascript application/javascript application/json application/xml text/xml image/svg+xml text/plain;

    error_page 413 /_proxy/$bimbi_page_kind/413;
    error_page 414 /_proxy/$bimbi_page_kind/414;
    error_page 494 =431 /_proxy/$bimbi_page_kind/431;
    error_page 429 /_proxy/$bimbi_page_kind/429;
    error_page 502 /_proxy/$bimbi_page_kind/502;
    error_page 503 /_proxy/$bimbi_page_kind/503;
    error_page 504 /_proxy/$bimbi_page_kind/504;

    location /_proxy/api- {
        internal;
        alias ${quoted(`${path.resolve(options.proxyPagesDir)}/api-`)};
        default_type "application/json; charset=utf-8";
        add_header Retry-After ${retryAfterSeconds} always;
        add_header Cache-Control "no-store" always;
    }
    location /_proxy/ {
        internal;
        alias ${dirOf(options.proxyPagesDir)};
        default_type "text/html; charset=utf-8";
        add_header Retry-After ${retryAfterSeconds} always;
        add_header Cache-Control "no-store" always;
        add_header X-Content-Type-Options nosniff always;
    }

    # The build's hashed files never change: a year in every cache.
    location /assets/ {
        alias ${dirOf(path.join(options.clientDir, "assets"))};
${options.brotliStatic ? "        brotli_static on;\n" : ""}        gzip_static on;
        add_header Cache-Control "public, max-age=31536000, immutable";
        add_header X-Content-Type-Options nosniff;
        try_files $uri =404;
    }
    location = /og-image.png {
        root ${quoted(path.resolve(options.clientDir))};
        add_header Cache-Control "public, max-age=3600";
    }
`);
  if (options.mediaDir) {
    add(`    # Picture keys change with every upload: a week in the browser's cache. A sample picture not drawn
    # yet is not on disk: the app draws it (then it is).
    location /media/ {
        alias ${dirOf(options.mediaDir)};
        add_header Cache-Control "public, max-age=604800";
        add_header X-Content-Type-Options nosniff;
        try_files $uri @app;
    }
`);
  }
  add(`    location ~ ^/(en/)?admin/prodotti/ {
        client_max_body_size ${proxyBodyLimits.pictures};
${toTheApp("        ")}
    }
    location ~ ^/(en/)?admin/importa {
        client_max_body_size ${proxyBodyLimits.csvImport};
${toTheApp("        ")}
    }
    location = /api/payments/stripe/webhook {
        client_max_body_size ${proxyBodyLimits.stripeWebhook};
${toTheApp("        ")}
    }
    location /api/ {
        client_max_body_size ${proxyBodyLimits.api};
${toTheApp("        ")}
    }
    location / {
${toTheApp("        ")}
    }
    location @app {
${toTheApp("        ")}
    }
}
`);
  return lines.join("\n");
}

/**
 * A whole nginx.conf around the site, for a stack nginx runs with `-p prefix` (stack.ts): its own pid,
 * logs and temporary folders under `prefixDir`, nothing of the machine's /etc/nginx but mime.types.
 */
export function renderStandaloneNginxConf(options: {
  prefixDir: string;
  site: string;
  /** `user` for the workers when nginx starts as root. */
  user?: string;
  brotliStatic: boolean;
  workers?: number;
}): string {
  const prefix = path.resolve(options.prefixDir);
  return `${options.brotliStatic ? `load_module ${brotliStaticModule};\n` : ""}${options.user ? `user ${options.user};\n` : ""}worker_processes ${options.workers ?? "auto"};
pid ${quoted(`${prefix}/nginx.pid`)};
error_log ${quoted(`${prefix}/error.log`)} warn;
daemon off;

events {
    worker_connections 4096;
}

http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65s;
    # Which process answered (or "-": nginx itself), and how long it took.
    log_format bimbi '$remote_addr "$request" $status $body_bytes_sent upstream=$upstream_addr $upstream_status $request_time';
    access_log ${quoted(`${prefix}/access.log`)} bimbi;
    client_body_temp_path ${quoted(`${prefix}/temp/body`)};
    proxy_temp_path ${quoted(`${prefix}/temp/proxy`)};
    fastcgi_temp_path ${quoted(`${prefix}/temp/fastcgi`)};
    uwsgi_temp_path ${quoted(`${prefix}/temp/uwsgi`)};
    scgi_temp_path ${quoted(`${prefix}/temp/scgi`)};

${options.site
  .split("\n")
  .map((line) => (line ? `    ${line}` : line))
  .join("\n")}
}
`;
}
