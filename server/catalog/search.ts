/**
 * Pure rules of the shop's search: how the text a person typed becomes the words the database
 * matches (server/catalog/search.service.ts). No db, env or clock.
 *
 * docs/rules.md#listing-and-search is the floor: case-insensitive, word-based, every word must match the name,
 * the short description or the first brand. The database adds accents, stemming and typos.
 */

/** Longer searches are cut here (the header's field has the same maxlength). */
export const maxSearchLength = 100;
/** Words beyond this are ignored: no real search needs more, and each word costs an index probe. */
export const maxSearchWords = 10;
/** Typo matching works on trigrams: shorter words would match almost anything. */
export const minTypoWordLength = 3;

export type SearchText = {
  /** What is searched and shown back: trimmed, spaces collapsed, at most maxSearchLength characters. */
  text: string;
  /** The person typed more than maxSearchLength characters. */
  truncated: boolean;
};

// Control characters (C0, DEL, C1) never belong in a search; they are turned into spaces.
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/g;

/** Normalises a raw `search` parameter. Cuts by characters, never inside a surrogate pair. */
export function normaliseSearchText(raw: string | null | undefined): SearchText {
  const cleaned = (raw ?? "").normalize("NFC").replace(controlCharacters, " ").replace(/\s+/g, " ").trim();
  const characters = Array.from(cleaned);
  if (characters.length <= maxSearchLength) return { text: cleaned, truncated: false };
  return { text: characters.slice(0, maxSearchLength).join("").trim(), truncated: true };
}

/**
 * The words of a search: runs of letters and digits, lower-cased, each once, at most maxSearchWords.
 * Everything else (punctuation, quotes, SQL or HTML syntax) only separates words, so a search is
 * always matched as plain words and never as query syntax.
 */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  for (const word of text.toLocaleLowerCase("it").split(/[^\p{L}\p{M}\p{N}]+/u)) {
    if (word && !words.includes(word)) words.push(word);
    if (words.length === maxSearchWords) break;
  }
  return words;
}
