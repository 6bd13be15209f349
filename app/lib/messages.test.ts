import { expect, test } from "vitest";
import en from "#messages/en.json";
import it from "#messages/it.json";

/** Every key path of a message catalogue ("contact.errors.nameRequired", "weekdays.1", ...). */
function keyPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return [prefix];
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
  }
  return [prefix];
}

test("Italian and English have exactly the same message keys", () => {
  expect(keyPaths(en).sort()).toEqual(keyPaths(it).sort());
});

test("no message is empty", () => {
  const empty = (catalogue: unknown) =>
    keyPaths(catalogue).filter((path) => {
      const value = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], catalogue);
      return value === "";
    });
  expect(empty(it)).toEqual([]);
  expect(empty(en)).toEqual([]);
});

test("translated lists have the same length in both languages", () => {
  const lists = (catalogue: unknown, prefix = ""): Record<string, number> => {
    if (Array.isArray(catalogue)) return { [prefix]: catalogue.length };
    if (catalogue && typeof catalogue === "object") {
      return Object.assign({}, ...Object.entries(catalogue).map(([key, child]) => lists(child, prefix ? `${prefix}.${key}` : key)));
    }
    return {};
  };
  expect(lists(en)).toEqual(lists(it));
});
