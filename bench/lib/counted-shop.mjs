// The production build started in this process, as server.js starts it, answering its parent's "counts" message
// with the page cache's counts (pages given from the store, rendered, kept): for bench/order-flow.mjs, through
// startShopForBench({ counted: true }).
import path from "node:path";

// The checkout it was started in (startShopForBench's `appRoot`): this one's build or a baseline's.
const root = process.cwd();
const { startShop } = await import(path.join(root, "build/server/index.js"));
const { server } = await startShop({ clientDir: path.resolve("build/client") });
// The server's request listener is the Express application, whose locals hold the page cache.
const [app] = server.listeners("request");
process.on("message", (message) => {
  if (message === "counts") process.send({ counts: { ...app.locals.pageCache.counts } });
});
process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));
