/**
 * A real OpenID Connect provider on 127.0.0.1 for tests (never the network): oidc-provider with
 * its development login form, where any login and password sign in as that login. Test-only:
 * production code never imports it (oidc-provider is a devDependency).
 *
 *   const idp = await startLocalOidcProvider({ redirectUri: `${shopUrl}/api/auth/callback/oidc` });
 *   env: OIDC_ISSUER=idp.issuer, OIDC_CLIENT_ID=idp.clientId, OIDC_CLIENT_SECRET=idp.clientSecret
 *   const callback = await signInAtLocalProvider(authorizeUrl, "giulia");   // the shop's callback URL
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export type LocalOidcProvider = { issuer: string; clientId: string; clientSecret: string; close: () => Promise<void> };

/** The identity a login gets: `giulia` signs in as giulia@oidc.example, "Giulia" by name. */
export function localOidcIdentity(login: string) {
  const name = login.charAt(0).toUpperCase() + login.slice(1);
  return { sub: login, email: `${login}@oidc.example`, email_verified: true, name: `${name} Bianchi` };
}

export async function startLocalOidcProvider({ redirectUri }: { redirectUri: string }): Promise<LocalOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "bimbi-shop";
  const clientSecret = "local-oidc-client-secret-for-tests";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    // The development login form signs in as whatever login is typed.
    findAccount: (_context, login) => ({ accountId: login, claims: () => localOidcIdentity(login) }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    cookies: { keys: ["local-oidc-cookie-key-for-tests"] },
    features: { devInteractions: { enabled: true } },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Goes through the provider's pages like a browser without JavaScript: follows redirects, fills the
 * development login form with `login`, confirms the consent form, and returns the first address
 * outside the provider (the shop's callback with `code` and `state`).
 */
export async function signInAtLocalProvider(authorizeUrl: string, login: string): Promise<string> {
  const issuerOrigin = new URL(authorizeUrl).origin;
  const cookies = new Map<string, string>();
  let next: { url: string; method: "GET" | "POST"; body?: URLSearchParams } = { url: authorizeUrl, method: "GET" };
  for (let step = 0; step < 20; step++) {
    const response = await fetch(next.url, {
      method: next.method,
      body: next.body,
      redirect: "manual",
      headers: { Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const eq = pair.indexOf("=");
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = response.headers.get("location");
    if (location) {
      const target = new URL(location, next.url).href;
      if (new URL(target).origin !== issuerOrigin) return target;
      next = { url: target, method: "GET" };
      continue;
    }
    const html = await response.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
    if (!form) throw new Error(`local OIDC provider: no form at ${next.url} (status ${response.status})`);
    const body = new URLSearchParams();
    for (const input of form[2]!.matchAll(/<input[^>]*name="([^"]+)"(?:[^>]*value="([^"]*)")?[^>]*>/g)) body.set(input[1]!, input[2] ?? "");
    if (body.has("login")) body.set("login", login);
    if (body.has("password")) body.set("password", "any-password");
    next = { url: new URL(form[1]!.replace(/&amp;/g, "&"), next.url).href, method: "POST", body };
  }
  throw new Error("local OIDC provider: too many steps");
}
