/**
 * Messages as pages ship them: a route module lists key prefixes of messages/*.json in `handle.messages`,
 * and the server picks those parts of the catalogue for the page (app/lib/route-messages.ts).
 */
export type Messages = { [key: string]: unknown };

/** A route module's `export const handle = { messages: [...] } satisfies MessagesHandle`. */
export type MessagesHandle = { messages: readonly string[] };

/** i18next's plural and context forms of a key: "wishlistCount_one", "wishlistCount_other". */
const isFormOf = (name: string, key: string) => name === key || name.startsWith(`${key}_`);

/** The part of `catalogue` under `prefixes`, nested as in the catalogue; plural forms come with their key. */
export function pickMessages(catalogue: Messages, prefixes: readonly string[]): Messages {
  const picked: Messages = {};
  for (const prefix of prefixes) {
    const path = prefix.split(".");
    const last = path.pop()!;
    const source = path.reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Messages)[key] : undefined), catalogue);
    if (!source || typeof source !== "object") continue;
    const forms = Object.entries(source as Messages).filter(([name]) => isFormOf(name, last));
    if (forms.length === 0) continue;
    const target = path.reduce((node, key) => (node[key] ??= {}) as Messages, picked);
    for (const [name, value] of forms) target[name] = value;
  }
  return picked;
}
