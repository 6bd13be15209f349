import { setImmediate as nextTurn } from "node:timers/promises";
import { expect, test } from "vitest";
import { coalescedChunks } from "./coalesced-chunks.server";

/** Every piece the stream hands on, as text, in order. */
function piecesOut(stream: ReturnType<typeof coalescedChunks>) {
  const pieces: string[] = [];
  stream.on("data", (piece: Buffer) => pieces.push(piece.toString("utf8")));
  return pieces;
}

test("pieces written in one burst go on as one piece, byte for byte, once the burst is over", async () => {
  const stream = coalescedChunks();
  const pieces = piecesOut(stream);
  const page = Buffer.from("<!DOCTYPE html><html><head><title>Passeggini già pronti</title></head><body>è</body></html>");
  // Cut every 7 bytes, so letters of two bytes are split between pieces.
  for (let at = 0; at < page.length; at += 7) stream.write(page.subarray(at, at + 7));
  expect(pieces).toEqual([]);
  await nextTurn();
  expect(pieces).toEqual([page.toString("utf8")]);
});

test("what is written later (a part streamed after the shell) goes on as its own piece, and the end sends the rest", async () => {
  const ended: string[] = [];
  const stream = coalescedChunks({ onEnd: () => ended.push("end") });
  const pieces = piecesOut(stream);
  stream.write("<main>");
  stream.write("shell");
  await nextTurn();
  stream.write("<template>later</template>");
  await nextTurn();
  stream.end("</main>");
  await new Promise((resolve) => stream.on("end", resolve));
  expect(pieces).toEqual(["<main>shell", "<template>later</template>", "</main>"]);
  expect(ended).toEqual(["end"]);
});

test("a burst larger than maxBytes goes on in pieces of about that size, without waiting for the burst to end", () => {
  const stream = coalescedChunks({ maxBytes: 10 });
  const pieces = piecesOut(stream);
  for (const piece of ["abcd", "efgh", "ijkl", "mnop", "qrst"]) stream.write(piece);
  expect(pieces).toEqual(["abcdefghijkl"]);
});
