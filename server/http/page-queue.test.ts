import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, expect, test } from "vitest";
import { pageQueue, uploadQueue } from "./page-queue";

/** Each request's name in the order the app began working on it. */
const started: string[] = [];
/** Requests the app is working on, each finished by calling its function. */
const inProgress = new Map<string, () => void>();
let baseUrl = "";
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(pageQueue({ concurrency: 1 }));
  app.use(uploadQueue());
  app.all("/{*splat}", (req, res) => {
    const name = typeof req.query.name === "string" ? req.query.name : "";
    started.push(name);
    inProgress.set(name, () => res.send(name));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => {
    server.closeAllConnections();
    server.close();
  };
});
afterAll(() => close?.());

async function until(condition: () => boolean) {
  for (let waitedMs = 0; !condition(); waitedMs += 10) {
    if (waitedMs > 5_000) throw new Error("waited 5 s in vain");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function finish(name: string) {
  inProgress.get(name)!();
  inProgress.delete(name);
}

test("pages are worked on one at a time in arrival order; API calls and posts never wait", async () => {
  started.length = 0;
  const first = fetch(`${baseUrl}/shop?name=first`);
  await until(() => started.includes("first"));
  const second = fetch(`${baseUrl}/product/25?name=second`);
  // Two connections: a moment between them makes the order they arrive in certain (real sockets, and the
  // queue says nothing when a request joins it).
  await new Promise((resolve) => setTimeout(resolve, 50));
  const third = fetch(`${baseUrl}/categoria/A-spasso.data?name=third`);
  const apiCall = fetch(`${baseUrl}/api/getListaProdotti?name=api`);
  const post = fetch(`${baseUrl}/cart?name=post`, { method: "POST" });
  await until(() => started.includes("api") && started.includes("post"));
  expect(started[0]).toBe("first");
  expect(started.slice(1).sort()).toEqual(["api", "post"]);

  finish("api");
  finish("post");
  finish("first");
  expect(await (await first).text()).toBe("first");
  await until(() => started.includes("second"));
  expect(started).not.toContain("third");
  finish("second");
  await until(() => started.includes("third"));
  finish("third");
  expect(await Promise.all([second, third, apiCall, post].map(async (answer) => (await answer).text()))).toEqual(["second", "third", "api", "post"]);
});

test("a page whose visitor left while it waited is never worked on", async () => {
  started.length = 0;
  const first = fetch(`${baseUrl}/shop?name=busy`);
  await until(() => started.includes("busy"));
  const leaving = new AbortController();
  const left = fetch(`${baseUrl}/shop?name=left`, { signal: leaving.signal }).catch((error: unknown) => error);
  const stayed = fetch(`${baseUrl}/shop?name=stayed`);
  // Both wait behind "busy" (real sockets: a moment for them to arrive); then one visitor gives up.
  await new Promise((resolve) => setTimeout(resolve, 50));
  leaving.abort();
  expect(await left).toBeInstanceOf(Error);
  await new Promise((resolve) => setTimeout(resolve, 50));

  finish("busy");
  await first;
  await until(() => started.includes("stayed"));
  finish("stayed");
  expect(await (await stayed).text()).toBe("stayed");
  expect(started).toEqual(["busy", "stayed"]);
});

test("uploads (multipart posts) are worked on one at a time; a page and a form post do not wait for them", async () => {
  started.length = 0;
  const upload = (name: string) => {
    const form = new FormData();
    form.set("image", new Blob([new Uint8Array(1024)]), "foto.jpg");
    return fetch(`${baseUrl}/admin/prodotti/1?name=${name}`, { method: "POST", body: form });
  };
  const first = upload("upload-1");
  await until(() => started.includes("upload-1"));
  const second = upload("upload-2");
  const page = fetch(`${baseUrl}/shop?name=page`);
  const post = fetch(`${baseUrl}/cart?name=form`, { method: "POST", body: new URLSearchParams({ intent: "add" }) });
  await until(() => started.includes("page") && started.includes("form"));
  expect(started).not.toContain("upload-2");

  finish("page");
  finish("form");
  finish("upload-1");
  await until(() => started.includes("upload-2"));
  finish("upload-2");
  expect(await Promise.all([first, second, page, post].map(async (answer) => (await answer).text()))).toEqual([
    "upload-1",
    "upload-2",
    "page",
    "form",
  ]);
});
