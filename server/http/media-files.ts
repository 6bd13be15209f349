/**
 * /media/...: the product pictures from the media store. A folder is served by express.static (ranges,
 * ETags, 304s); a bucket's objects are streamed through, so the bucket stays private and the pages'
 * addresses stay the same. Either way a week in the browser's cache (keys change with every upload).
 */
import { pipeline } from "node:stream/promises";
import express from "express";
import type { MediaStore } from "#server/media/media-store.ts";

const maxAgeSeconds = 7 * 24 * 3600;
const mediaKeyPath = /^\/([a-z0-9]+(?:\/[a-z0-9][a-z0-9.-]*)+)$/;

export function serveMedia(store: MediaStore): express.RequestHandler {
  if (store.dir) return express.static(store.dir, { maxAge: maxAgeSeconds * 1000, index: false, fallthrough: false });
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const key = mediaKeyPath.exec(req.path)?.[1];
    if (!key || key.includes("..")) {
      res.status(404).end();
      return;
    }
    store
      .read(key)
      .then(async (file) => {
        if (!file) {
          res.status(404).end();
          return;
        }
        res.setHeader("Content-Type", file.contentType);
        res.setHeader("Content-Length", String(file.size));
        res.setHeader("Cache-Control", `public, max-age=${maxAgeSeconds}`);
        if (req.method === "HEAD") {
          file.body.destroy();
          res.end();
          return;
        }
        await pipeline(file.body, res);
      }, next)
      .catch(next);
  };
}
