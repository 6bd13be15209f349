// Stops with one clear line when the running Node is too old (`npm install` pulls Node 24 into
// node_modules/.bin, which every `npm run` uses; a bare `node` may still be the system's older one).
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  console.error(
    `This shop needs Node >= 24 (found ${process.versions.node}). Run \`npm install\` first: it installs Node 24 into node_modules/.bin for npm scripts.`,
  );
  process.exit(1);
}
