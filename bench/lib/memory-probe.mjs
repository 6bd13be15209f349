// Loaded into the shop's process by bench/memory.mjs only (`node --import ./bench/lib/memory-probe.mjs
// server.js`): the shop's code carries no memory endpoint or flag. Every second it writes what only the
// process itself can tell to MEMORY_PROBE_FILE: V8's heap (process.memoryUsage, the heap spaces) and the
// size of every WebAssembly memory (PGlite's Emscripten heap). The resident set is read from outside, in
// /proc. A timer and no signal: the shop already answers SIGUSR2 (backups) and SIGUSR1 opens the inspector.
import fs from "node:fs";
import v8 from "node:v8";

const file = process.env.MEMORY_PROBE_FILE;
const memories = new Set();
const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

if (file) {
  // Emscripten either makes its memory in JavaScript (PGlite does) or takes the one the module exports.
  const NativeMemory = WebAssembly.Memory;
  WebAssembly.Memory = class extends NativeMemory {
    constructor(descriptor) {
      super(descriptor);
      memories.add(new WeakRef(this));
    }
  };
  const keepExported = (result) => {
    const instance = result instanceof WebAssembly.Instance ? result : result.instance;
    for (const value of Object.values(instance?.exports ?? {})) if (value instanceof NativeMemory) memories.add(new WeakRef(value));
    return result;
  };
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = (...args) => instantiate(...args).then(keepExported);
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  if (instantiateStreaming) WebAssembly.instantiateStreaming = (...args) => instantiateStreaming(...args).then(keepExported);

  const write = () => {
    const usage = process.memoryUsage();
    let wasmBytes = 0;
    for (const ref of memories) {
      const memory = ref.deref();
      if (memory) wasmBytes += memory.buffer.byteLength;
      else memories.delete(ref);
    }
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, mb(space.space_size)]));
    const sample = {
      at: Date.now(),
      heapUsedMb: mb(usage.heapUsed),
      heapTotalMb: mb(usage.heapTotal),
      externalMb: mb(usage.external),
      arrayBuffersMb: mb(usage.arrayBuffers),
      wasmMemoryMb: mb(wasmBytes),
      heapSpacesMb: spaces,
    };
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(sample));
    fs.renameSync(`${file}.tmp`, file);
  };
  setInterval(write, 1000).unref();
}
