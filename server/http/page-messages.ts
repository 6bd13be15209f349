import { data, type ServerBuild } from "react-router";
import { localeOfPath, type Locale } from "#common/locale.ts";
import { pickMessages, type Messages, type MessagesHandle } from "#common/messages.ts";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";

const catalogues: Record<Locale, Messages> = { it: messagesIt, en: messagesEn };
/** Picked once per route module and language: a handle is a module constant. */
const picked = new WeakMap<MessagesHandle, Partial<Record<Locale, Messages>>>();

/** What a page's loader data carries for the browser's i18next: its `handle.messages`, in the page's language. */
export function getPageMessages(locale: Locale, handle: MessagesHandle): Messages {
  const byLocale = picked.get(handle) ?? {};
  picked.set(handle, byLocale);
  return (byLocale[locale] ??= pickMessages(catalogues[locale], handle.messages));
}

type ServerRoute = NonNullable<ServerBuild["routes"][string]>;

const isMessagesHandle = (handle: unknown): handle is MessagesHandle =>
  typeof handle === "object" && handle !== null && Array.isArray((handle as Partial<MessagesHandle>).messages);

/** React Router's own test for a `data(value, init)` result (its `isDataWithResponseInit` is not exported). */
const isDataWithInit = (value: unknown): value is { data: unknown; init: ResponseInit | null } =>
  typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** A loader's result with `messages` beside its data; a Response (a returned redirect) passes as it is. */
function addMessages(result: unknown, messages: Messages): unknown {
  if (isDataWithInit(result)) return data(addMessages(result.data, messages), result.init ?? undefined);
  if (isPlainObject(result)) return { ...result, messages };
  if (result instanceof Response) return result;
  // Without its messages the page would show keys: a bug to see at once, not a page to serve.
  throw new Error("A page's loader must return an object: its messages go beside its data");
}

/** A page's loader whose data also carries the page's messages, on the first page and on client navigations alike. */
function withRouteMessages(route: ServerRoute): ServerRoute {
  const { loader, handle } = route.module;
  // The root sends the shell's messages itself, with the first page only (app/root.tsx).
  if (route.id === "root" || !loader || !isMessagesHandle(handle)) return route;
  return {
    ...route,
    module: {
      ...route.module,
      loader: async (args, handlerContext) =>
        addMessages(await loader(args, handlerContext), getPageMessages(localeOfPath(args.url.pathname), handle)),
    },
  };
}

const buildsWithMessages = new WeakMap<ServerBuild, ServerBuild>();

/**
 * The build the request handler serves (server/http/shop-app.ts): every route module that lists
 * `handle.messages` gets them in its loader data, so no loader returns them itself. React Router reads
 * loaders from `build.routes`, for document and `.data` requests alike; development passes a new build
 * after each change, production the same one on every request (one wrapping each). Why here:
 * docs/decisions/0029-page-messages-added-by-the-server.md.
 */
export function withPageMessages(build: ServerBuild): ServerBuild {
  let wrapped = buildsWithMessages.get(build);
  if (!wrapped) {
    const routes = Object.fromEntries(Object.entries(build.routes).map(([id, route]) => [id, route && withRouteMessages(route)]));
    wrapped = { ...build, routes };
    buildsWithMessages.set(build, wrapped);
  }
  return wrapped;
}
