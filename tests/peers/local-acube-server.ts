/**
 * An A-Cube-compatible SDI intermediary on 127.0.0.1 for tests (never the network). It speaks the calls
 * the shop makes (docs/decisions/0091-sdi-intermediary.md):
 *
 *   POST /login {email, password} -> {token};  POST /invoices (Bearer token, application/xml) -> 202 {uuid};
 *   GET /invoices/{uuid}/notifications (Bearer token) -> [notification, ...]
 *
 * and plays the SDI: `notify(uuid, "RC" | "MC" | "NS", errors)` posts a REAL signed callback
 * (`customer-notification`: HTTP Message Signatures, ed25519, key id "acube") to `webhookUrl`, as A-Cube
 * does. Every notification built is the SDI's answer: the list holds it even when its callback is never
 * delivered (a lost callback). Tests can make the next answers fail, replay a callback, or forge one. Test-only.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { callbackSignatureBase, contentDigestOf } from "#server/invoices/acube.ts";

export type ReceivedFile = { uuid: string; xml: string; receivedAt: Date };
export type CallbackDelivery = { status: number; body: string };

export type LocalAcubeServer = {
  url: string;
  email: string;
  password: string;
  /** The public key callbacks are signed with: 32 bytes in base64, as ACUBE_WEBHOOK_PUBLIC_KEY takes it. */
  publicKey: string;
  webhookUrl: string | null;
  files: ReceivedFile[];
  logins: number;
  /** The next POST /invoices answers get these statuses (then 202 again). */
  failNextSends: number[];
  /** The next GET of a file's notifications answers these statuses (then 200 again). */
  failNextLists: number[];
  /** How often each file's notifications were asked for. */
  listsAsked: Map<string, number>;
  /** A signed callback body and headers for a notification of a file (not delivered). */
  buildCallback: (
    uuid: string,
    type: string,
    errors?: { code: string; description: string }[],
    options?: { at?: Date },
  ) => { body: string; headers: Record<string, string> };
  /** Posts a callback (as built, or altered) to webhookUrl. */
  deliver: (callback: { body: string; headers: Record<string, string> }) => Promise<CallbackDelivery>;
  /** The SDI answers a file: the callback built and delivered. */
  notify: (uuid: string, type: string, errors?: { code: string; description: string }[]) => Promise<CallbackDelivery>;
  close: () => Promise<void>;
};

export async function startLocalAcubeServer(options: { webhookUrl?: string } = {}): Promise<LocalAcubeServer> {
  const { publicKey, privateKey } = crypto.generateKeyPairSync("ed25519");
  const rawPublic = publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("base64");
  const tokens = new Set<string>();
  const notificationsOf = new Map<string, unknown[]>();
  let sdiCounter = 1000;

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      if (req.method === "POST" && req.url === "/login") {
        const credentials = JSON.parse(body || "{}") as { email?: string; password?: string };
        if (credentials.email !== peer.email || credentials.password !== peer.password) return json(res, 401, { message: "Invalid credentials." });
        peer.logins += 1;
        const token = crypto.randomBytes(16).toString("hex");
        tokens.add(token);
        return json(res, 200, { token });
      }
      if (req.method === "POST" && req.url === "/invoices") {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
        if (!token || !tokens.has(token)) return json(res, 401, { message: "JWT Token not found" });
        const failure = peer.failNextSends.shift();
        if (failure)
          return json(
            res,
            failure,
            failure === 422 ? { violations: [{ propertyPath: "xml", message: "Il file non è conforme" }] } : { detail: "Service unavailable" },
          );
        if (!(req.headers["content-type"] ?? "").startsWith("application/xml") || !body.includes("FatturaElettronica"))
          return json(res, 400, { detail: "Invalid XML" });
        const uuid = crypto.randomUUID();
        peer.files.push({ uuid, xml: body, receivedAt: new Date() });
        return json(res, 202, { uuid });
      }
      const listed = /^\/invoices\/([^/]+)\/notifications$/.exec(req.url ?? "");
      if (req.method === "GET" && listed) {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
        if (!token || !tokens.has(token)) return json(res, 401, { message: "JWT Token not found" });
        const uuid = decodeURIComponent(listed[1]!);
        peer.listsAsked.set(uuid, (peer.listsAsked.get(uuid) ?? 0) + 1);
        const failure = peer.failNextLists.shift();
        if (failure) return json(res, failure, { detail: "Service unavailable" });
        if (!peer.files.some((file) => file.uuid === uuid)) return json(res, 404, { detail: "Not found" });
        return json(res, 200, notificationsOf.get(uuid) ?? []);
      }
      json(res, 404, { detail: "Not found" });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const buildCallback: LocalAcubeServer["buildCallback"] = (uuid, type, errors = [], options = {}) => {
    const at = options.at ?? new Date();
    if (!peer.webhookUrl) throw new Error("the local A-Cube server has no webhookUrl");
    const message: Record<string, unknown> = { identificativo_sdi: String((sdiCounter += 1)), nome_file: `IT00000000000_${uuid.slice(0, 5)}.xml` };
    if (type === "NS") message.lista_errori = { errore: errors.map((error) => ({ codice: error.code, descrizione: error.description })) };
    const notification = {
      uuid: crypto.randomUUID(),
      invoice_uuid: uuid,
      created_at: at.toISOString(),
      type,
      file_name: "notifica.xml",
      message,
      downloaded: false,
    };
    notificationsOf.set(uuid, [...(notificationsOf.get(uuid) ?? []), notification]);
    const body = JSON.stringify({ notification });
    const date = at.toUTCString();
    const contentDigest = contentDigestOf(body);
    const params = `("@method" "@authority" "@target-uri" "date" "content-digest");created=${Math.floor(at.getTime() / 1000)};keyid="acube";alg="ed25519"`;
    const base = callbackSignatureBase({ method: "POST", targetUri: peer.webhookUrl, date, contentDigest, params });
    const signature = crypto.sign(null, Buffer.from(base), privateKey).toString("base64");
    return {
      body,
      headers: {
        "content-type": "application/json",
        date,
        "content-digest": contentDigest,
        "signature-input": `sig1=${params}`,
        signature: `sig1=:${signature}:`,
      },
    };
  };

  const deliver: LocalAcubeServer["deliver"] = async (callback) => {
    const response = await fetch(peer.webhookUrl!, { method: "POST", headers: callback.headers, body: callback.body });
    return { status: response.status, body: await response.text() };
  };

  const peer: LocalAcubeServer = {
    url: `http://127.0.0.1:${port}`,
    email: "negozio@example.it",
    password: crypto.randomBytes(8).toString("hex"),
    publicKey: rawPublic,
    webhookUrl: options.webhookUrl ?? null,
    files: [],
    logins: 0,
    failNextSends: [],
    failNextLists: [],
    listsAsked: new Map(),
    buildCallback,
    deliver,
    notify: (uuid, type, errors) => deliver(buildCallback(uuid, type, errors)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return peer;
}
