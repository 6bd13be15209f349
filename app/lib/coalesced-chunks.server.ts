import { Transform } from "node:stream";

/**
 * Joins the small pieces a server render writes in one burst (React writes about 2 KB at a time: a listing
 * page is some hundred pieces) into one piece per burst, sent once the burst is over (the event loop's next
 * turn) or when `maxBytes` have gathered. Every piece after it (the web stream React Router hands to
 * Express, the compression middleware, the socket) then works once per burst instead of once per 2 KB;
 * what a page streams later (a deferred part) still goes out as soon as it is written.
 */
export function coalescedChunks({ maxBytes = 64 * 1024, onEnd }: { maxBytes?: number; onEnd?: () => void } = {}): Transform {
  let gathered: Buffer[] = [];
  let size = 0;
  let scheduled: NodeJS.Immediate | undefined;
  const send = () => {
    scheduled = undefined;
    if (size === 0 || stream.destroyed) return;
    const piece = gathered.length === 1 ? gathered[0]! : Buffer.concat(gathered, size);
    gathered = [];
    size = 0;
    stream.push(piece);
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      gathered.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) {
        if (scheduled) clearImmediate(scheduled);
        send();
      } else {
        scheduled ??= setImmediate(send);
      }
      callback();
    },
    flush(callback) {
      if (scheduled) clearImmediate(scheduled);
      send();
      onEnd?.();
      callback();
    },
  });
  return stream;
}
