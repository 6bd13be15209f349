import { data, redirect, RouterContextProvider, type LoaderFunction, type ServerBuild } from "react-router";
import { expect, test } from "vitest";
import en from "#messages/en.json";
import it from "#messages/it.json";
import { withPageMessages } from "./page-messages";

/** A build with the given route modules, as React Router's request handler reads it. */
function buildOf(modules: Record<string, { loader?: LoaderFunction; handle?: unknown }>) {
  const routes = Object.fromEntries(Object.entries(modules).map(([id, module]) => [id, { id, path: id, module }]));
  return { routes } as unknown as ServerBuild;
}

/** Calls a route's loader in `build` as React Router does for a request to `path`. */
function load(build: ServerBuild, id: string, path: string) {
  const url = new URL(path, "http://shop.test");
  return build.routes[id]!.module.loader!({
    request: new Request(url),
    url,
    params: {},
    context: new RouterContextProvider(),
    pattern: path,
  });
}

const aboutHandle = { messages: ["about.title"] };

test("a page's loader data carries its listed texts in the page's language, beside its own data", async () => {
  const build = withPageMessages(buildOf({ about: { handle: aboutHandle, loader: () => ({ meta: { title: "t" } }) } }));
  expect(await load(build, "about", "/en/about")).toEqual({ meta: { title: "t" }, messages: { about: { title: en.about.title } } });
  expect(await load(build, "about", "/about")).toEqual({ meta: { title: "t" }, messages: { about: { title: it.about.title } } });
});

test("a status and headers set with data() stay, and a returned redirect passes untouched", async () => {
  const headers = { "Set-Cookie": "a=1" };
  const build = withPageMessages(
    buildOf({
      throttled: { handle: aboutHandle, loader: () => data({ throttled: true }, { status: 429, headers }) },
      moved: { handle: aboutHandle, loader: () => redirect("/en/elsewhere") },
    }),
  );
  expect(await load(build, "throttled", "/en/x")).toEqual(
    data({ throttled: true, messages: { about: { title: en.about.title } } }, { status: 429, headers }),
  );
  const moved = (await load(build, "moved", "/en/x")) as Response;
  expect([moved.status, moved.headers.get("Location")]).toEqual([302, "/en/elsewhere"]);
});

test("the root keeps its own loader (the shell's texts come with the first page only), as do routes listing no messages", async () => {
  const rootLoader = () => ({ messages: undefined });
  const resourceLoader = () => new Response("ok");
  const build = withPageMessages(buildOf({ root: { handle: aboutHandle, loader: rootLoader }, feed: { loader: resourceLoader } }));
  expect([build.routes.root!.module.loader, build.routes.feed!.module.loader]).toEqual([rootLoader, resourceLoader]);
});

test("a page whose loader returns no object fails at once instead of showing message keys", async () => {
  const build = withPageMessages(buildOf({ empty: { handle: aboutHandle, loader: () => null } }));
  await expect(load(build, "empty", "/en/x")).rejects.toThrow(/must return an object/);
});
