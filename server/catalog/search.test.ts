import { expect, test } from "vitest";
import { maxSearchLength, maxSearchWords, normaliseSearchText, searchWords } from "./search";

test("a search is trimmed and its spaces collapsed", () => {
  expect(normaliseSearchText("  passeggino \n\t leggero  ")).toEqual({ text: "passeggino leggero", truncated: false });
  expect(normaliseSearchText(null)).toEqual({ text: "", truncated: false });
});

test("a 2,000-character search is cut to the maximum, never inside a character", () => {
  const long = normaliseSearchText("a".repeat(2000));
  expect(long).toEqual({ text: "a".repeat(maxSearchLength), truncated: true });

  const emoji = normaliseSearchText("👶".repeat(150));
  expect(Array.from(emoji.text)).toHaveLength(maxSearchLength);
  expect(emoji.text).toBe("👶".repeat(maxSearchLength));
});

test("control characters become spaces", () => {
  expect(normaliseSearchText("culla\u0000\u0007legno").text).toBe("culla legno");
});

test("words are runs of letters and digits, lower-cased, each once", () => {
  expect(searchWords("Passeggino LEGGERO passeggino")).toEqual(["passeggino", "leggero"]);
  expect(searchWords("Perché? Björn, 3-in-1")).toEqual(["perché", "björn", "3", "in", "1"]);
});

test("SQL and HTML are only separators between plain words", () => {
  expect(searchWords("'; DROP TABLE products; --")).toEqual(["drop", "table", "products"]);
  expect(searchWords('<script>alert("x")</script>')).toEqual(["script", "alert", "x"]);
  expect(searchWords("'\"\\%_*:&|!()")).toEqual([]);
});

test("at most the maximum number of words is kept", () => {
  const many = Array.from({ length: 30 }, (_, index) => `w${index}`).join(" ");
  expect(searchWords(many)).toHaveLength(maxSearchWords);
});
