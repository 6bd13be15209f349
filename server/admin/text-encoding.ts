/**
 * The text of an uploaded import file. Italian Excel saves "CSV (delimitato dal separatore di elenco)" in
 * Windows-1252, where "è" is one byte that is not UTF-8; newer Excel and other tools save UTF-8, often with a
 * byte-order mark. Read strictly: UTF-8 when every byte sequence is UTF-8, otherwise Windows-1252 when every
 * byte is one of its characters; anything else (UTF-16, a spreadsheet's binary file) is refused rather than
 * imported as wrong letters. Pure.
 */
export type ImportTextEncoding = "utf-8" | "windows-1252";

export type DecodedImportText = { ok: true; text: string; encoding: ImportTextEncoding } | { ok: false; error: "not-text" };

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const windows1252 = new TextDecoder("windows-1252");
/** Bytes Windows-1252 leaves undefined: their presence means another encoding. */
const undefinedIn1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);
/** C0 controls other than tab, line feed and carriage return: no spreadsheet's text has them. */
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function decodeImportText(bytes: Uint8Array): DecodedImportText {
  // UTF-16 (Excel's "Unicode text") starts with its byte-order mark and is full of NUL bytes.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return { ok: false, error: "not-text" };
  let decoded: { text: string; encoding: ImportTextEncoding };
  try {
    decoded = { text: utf8.decode(bytes), encoding: "utf-8" };
  } catch {
    if (bytes.some((byte) => undefinedIn1252.has(byte))) return { ok: false, error: "not-text" };
    decoded = { text: windows1252.decode(bytes), encoding: "windows-1252" };
  }
  if (controlCharacter.test(decoded.text)) return { ok: false, error: "not-text" };
  return { ok: true, ...decoded };
}
