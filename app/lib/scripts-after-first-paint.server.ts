import { Transform } from "node:stream";

/**
 * Rewrites a server-rendered page so that its JavaScript is requested after the first paint
 * (docs/decisions/0031-scripts-after-first-paint.md). React Router's `<Scripts>` puts a
 * `<link rel="modulepreload">` per browser chunk in `<head>` and one inline `<script type="module">` at
 * the end of `<body>` that imports the page's route modules and the entry. Here the preloads leave
 * `<head>`, the module script is kept as inert text, and a small script after it runs a copy of it, with
 * the same preloads, once the browser has painted the page. The page shows as soon as its HTML and
 * stylesheet have arrived, without 120 KB of JavaScript sharing the connection, and hydrates right after.
 * A page without these parts passes unchanged.
 */
export function scriptsAfterFirstPaint(nonce: string): Transform {
  let phase: "head" | "body" | "done" = "head";
  // Bytes not sent yet. They are searched as latin1 text, one character per byte, so every index is a byte
  // offset, a letter cut between two pieces needs no care, and what is not rewritten goes out byte for byte.
  let pending: Buffer = Buffer.alloc(0);
  let preloads: string[] = [];

  /** What of `pending` can go out now; the rest waits for more of the page. */
  const rewrite = (final: boolean): Buffer[] => {
    const out: Buffer[] = [];
    if (phase === "head") {
      const headEnd = pending.indexOf("</head>");
      if (headEnd === -1 && !final) return out;
      const end = headEnd === -1 ? pending.length : headEnd;
      const { html, hrefs } = withoutModulePreloads(pending.toString("latin1", 0, end));
      preloads = hrefs;
      out.push(Buffer.from(html, "latin1"));
      pending = pending.subarray(end);
      phase = preloads.length > 0 ? "body" : "done";
    }
    if (phase === "body") {
      const text = pending.toString("latin1");
      const script = moduleScript.exec(text);
      const close = script ? text.indexOf("</script>", script.index) : -1;
      if (script && close !== -1) {
        const afterClose = close + "</script>".length;
        out.push(pending.subarray(0, script.index), Buffer.from(script[0].replace(moduleType, `type="${inertType}"`), "latin1"));
        out.push(pending.subarray(script.index + script[0].length, afterClose), Buffer.from(starterScript(nonce, preloads), "latin1"));
        pending = pending.subarray(afterClose);
        phase = "done";
      } else if (!final) {
        // Hold back the module script until its end arrives, or a tag cut off at the end of this piece.
        const lastTag = text.lastIndexOf("<");
        const cutTag = lastTag !== -1 && text.indexOf(">", lastTag) === -1 ? lastTag : text.length;
        const keep = script ? script.index : cutTag;
        out.push(pending.subarray(0, keep));
        pending = pending.subarray(keep);
        return out;
      }
    }
    if (phase === "done" || final) {
      out.push(pending);
      pending = Buffer.alloc(0);
    }
    return out;
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // Past the module script (most of a page's bytes), pieces pass as they are.
      if (phase === "done") return callback(null, chunk);
      pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      for (const piece of rewrite(false)) if (piece.length > 0) this.push(piece);
      callback();
    },
    flush(callback) {
      for (const piece of rewrite(true)) if (piece.length > 0) this.push(piece);
      callback();
    },
  });
}

/** React Router's inline module script (the only one a page has; no `src`): its opening tag. */
const moduleScript = /<script\b(?![^>]*\bsrc=)[^>]*\btype="module"[^>]*>/;
const moduleType = /\btype="module"/;
/** A type the browser does not run: the starter runs a copy of the script's text instead. */
const inertType = "text/x-module-after-first-paint";
const modulePreload = /<link\b[^>]*\brel="modulepreload"[^>]*>/g;

function withoutModulePreloads(head: string) {
  const hrefs: string[] = [];
  const html = head.replace(modulePreload, (tag) => {
    const href = /\bhref="([^"]*)"/.exec(tag)?.[1];
    if (href && !hrefs.includes(href)) hrefs.push(href);
    return "";
  });
  return { html, hrefs };
}

/** The list of chunks to preload, on the starter script (also read by bench/lib/page-sizes.mjs). */
const preloadsAttribute = /\bdata-module-preloads='([^']*)'/;

/** The scripts a page rewritten here loads once painted: what its `<link rel="modulepreload">` tags were. */
export function modulePreloadsAfterFirstPaint(html: string): string[] {
  const list = preloadsAttribute.exec(html)?.[1];
  return list ? (JSON.parse(list.replaceAll("&#39;", "'").replaceAll("&amp;", "&")) as string[]) : [];
}

/**
 * Runs after the inert module script: once the browser reports the page's first contentful paint (the
 * frame is on screen), it preloads every chunk at once, as the removed links did, and runs the module
 * script's text as a module. A page in a background tab paints nothing until shown, and a browser without
 * paint timing cannot tell: both start at once; one that never reports the paint starts a second after its
 * load event.
 */
function starterScript(nonce: string, hrefs: string[]) {
  const code = `(() => {
  const starter = document.currentScript;
  const inert = starter.previousElementSibling;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of JSON.parse(starter.dataset.modulePreloads)) document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));
    inert.after(Object.assign(document.createElement("script"), { type: "module", nonce: starter.nonce, textContent: inert.textContent }));
  };
  if (document.visibilityState === "hidden" || !window.PerformanceObserver?.supportedEntryTypes?.includes("paint")) return start();
  new PerformanceObserver((entries, observer) => {
    if (entries.getEntriesByName("first-contentful-paint").length === 0) return;
    observer.disconnect();
    setTimeout(start);
  }).observe({ type: "paint", buffered: true });
  addEventListener("load", () => setTimeout(start, 1000), { once: true });
})();`;
  const preloads = JSON.stringify(hrefs).replaceAll("&", "&amp;").replaceAll("'", "&#39;");
  return `<script nonce="${nonce}" data-module-preloads='${preloads}'>${code}</script>`;
}
