import { expect, test } from "vitest";
import { decodeImportText } from "./text-encoding";

const bytesOf = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...Buffer.from(part, "latin1")] : part)));

test("a file saved by Italian Excel in Windows-1252 keeps its accents and its euro sign", () => {
  // "è" is 0xE8, "à" 0xE0 and "€" 0x80 in Windows-1252; none of them is UTF-8 on its own.
  const file = bytesOf("nome;prezzo\r\nCulla in legno ", [0xe8], " bianca;129 ", [0x80], "\r\nSeggiolino pi", [0xf9], " comodo;59\r\n");
  expect(decodeImportText(file)).toEqual({
    ok: true,
    encoding: "windows-1252",
    text: "nome;prezzo\r\nCulla in legno è bianca;129 €\r\nSeggiolino più comodo;59\r\n",
  });
});

test("UTF-8, with or without its byte-order mark, is read as UTF-8", () => {
  const text = "nome;prezzo\nCulla in legno è bianca;129 €\n";
  expect(decodeImportText(new TextEncoder().encode(text))).toEqual({ ok: true, encoding: "utf-8", text });
  expect(decodeImportText(Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]))).toEqual({ ok: true, encoding: "utf-8", text });
});

test("UTF-16, a byte Windows-1252 leaves undefined, or binary content is refused", () => {
  const utf16 = Uint8Array.from([0xff, 0xfe, ...Buffer.from("nome;prezzo\n", "utf16le")]);
  expect(decodeImportText(utf16)).toEqual({ ok: false, error: "not-text" });
  expect(decodeImportText(bytesOf("nome;prezzo\nCulla ", [0x81], ";10\n"))).toEqual({ ok: false, error: "not-text" });
  // The start of a zipped .xlsx workbook.
  expect(decodeImportText(bytesOf("PK", [0x03, 0x04, 0x14, 0x00, 0x06, 0x00]))).toEqual({ ok: false, error: "not-text" });
});
