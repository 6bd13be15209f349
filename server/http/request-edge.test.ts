import { expect, test } from "vitest";
import { jsonNestsDeeperThan, maxJsonDepth } from "./request-edge";

const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

test("JSON deeper than the limit is told from JSON at the limit, brackets in strings aside", () => {
  expect(jsonNestsDeeperThan(nested(maxJsonDepth), maxJsonDepth)).toBe(false);
  expect(jsonNestsDeeperThan(nested(maxJsonDepth + 1), maxJsonDepth)).toBe(true);
  expect(jsonNestsDeeperThan(`${'{"a":'.repeat(maxJsonDepth + 1)}1${"}".repeat(maxJsonDepth + 1)}`, maxJsonDepth)).toBe(true);
  // Brackets inside strings, and an escaped quote that does not end one, are text.
  expect(jsonNestsDeeperThan(JSON.stringify({ note: `\\"${"[{".repeat(100)}` }), 2)).toBe(false);
  expect(jsonNestsDeeperThan(JSON.stringify([[["a\\", "]]]"]]]), 3)).toBe(false);
  expect(jsonNestsDeeperThan(JSON.stringify([[["a\\", "]]]", []]]]), 3)).toBe(true);
  expect(jsonNestsDeeperThan(nested(10_000), maxJsonDepth)).toBe(true);
});
