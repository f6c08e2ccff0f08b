// Loaded into the server by bench/memory-tour.ts (`node --import ./bench/memory-probe.mjs`; plain JavaScript, as worker
// threads inherit the flag without the TypeScript loader) when MEMORY_PROBE names a
// file: every 2 s it writes the process's own memory breakdown there (V8 heap, external, array buffers, and RSS), so
// the tour can say which part of the resident memory grows. Bench-only: the service never loads it.
import fs from 'node:fs';
import v8 from 'node:v8';
import { isMainThread } from 'node:worker_threads';

const file = process.env.MEMORY_PROBE;
if (file && isMainThread) {
  const write = () => {
    const usage = process.memoryUsage();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_used_size / 2 ** 20)]));
    fs.writeFileSync(file, JSON.stringify({
      rss: usage.rss, heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external, arrayBuffers: usage.arrayBuffers,
      spaces, at: Date.now(),
    }));
  };
  setInterval(write, 2000).unref();
  write();
}
