// `npm run bench:project`: what resolving a project and diffing two versions cost (issue 23).
// 1. Resolve: POST /tools/resolve of a 1,500-dependency package-lock.json (v3, built from the npm popularity list in
//    ../shared/data, so every name is a real package and in the catalog), warm, against a baseline POST of the same size
//    that does no work (/tools/resolve of a 1-dependency file padded to the same bytes with whitespace) in the same run.
// 2. First diff per ecosystem: GET /tools/changes on a fresh store (both versions downloaded and indexed, release notes
//    read), then the same question again (cached). BENCH_CHANGES=0 skips this part (no registry traffic).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../test/helpers/server.ts';

const DEPENDENCIES = Number(process.env.BENCH_DEPENDENCIES ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const PAIRS: [string, string, string][] = [
  ['npm-axios', '0.27.2', '1.7.9'],
  ['pypi:attrs', '22.2.0', '24.2.0'],
  ['crates:clap', '3.2.25', '4.0.32'],
  ['go:github.com/go-chi/chi/v5', 'github.com/go-chi/chi@v1.5.5', 'v5.1.0'],
];

function packageLock(count: number): string {
  const popular = fs.readFileSync(path.join(import.meta.dirname, '../../shared/data/npm-popular.tsv'), 'utf8').split('\n').slice(1)
    .map((line) => line.split('\t')).filter(([name, version]) => name && version).slice(0, count);
  const root = { name: 'bench', version: '1.0.0', dependencies: Object.fromEntries(popular.map(([name, version]) => [name, `^${version}`])) };
  const packages: Record<string, unknown> = { '': root };
  for (const [name, version] of popular) packages[`node_modules/${name}`] = { version, resolved: `https://registry.npmjs.org/${name}/-/${name}-${version}.tgz`, integrity: 'sha512-x' };
  return JSON.stringify({ name: 'bench', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2);
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;

const server = await startServer();
try {
  const lock = packageLock(DEPENDENCIES);
  const small = JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: { zod: '^3' } }, 'node_modules/zod': { version: '3.25.76' } } });
  const padded = small + ' '.repeat(Math.max(0, lock.length - small.length));
  const post = async (content: string) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/tools/resolve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ files: [{ name: 'package-lock.json', content }] }) });
    const body = await response.json() as { counts?: { direct: number } };
    if (response.status !== 200) throw new Error(`resolve answered ${response.status}: ${JSON.stringify(body)}`);
    return { ms: performance.now() - started, direct: body.counts!.direct };
  };
  await post(lock); // warm: JIT, catalog queries planned
  const full: number[] = [];
  const baseline: number[] = [];
  let direct = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const one = await post(lock);
    direct = one.direct;
    full.push(one.ms);
    baseline.push((await post(padded)).ms);
  }
  console.log(`resolve package-lock.json, ${direct} direct dependencies (${(lock.length / 1024).toFixed(0)} KiB): p50 ${percentile(full, 0.5).toFixed(1)} ms, max ${Math.max(...full).toFixed(1)} ms`
    + ` | same bytes, 1 dependency (baseline): p50 ${percentile(baseline, 0.5).toFixed(1)} ms (n=${ROUNDS} each, store=${server.app.store.kind})`);

  if (process.env.BENCH_CHANGES !== '0') {
    for (const [slug, from, to] of PAIRS) {
      const url = `${server.url}/tools/changes/${encodeURIComponent(slug)}?${new URLSearchParams({ from, to })}`;
      let started = performance.now();
      let response: Response;
      for (;;) { // a large package answers 503 while it indexes in the background: ask again, as a client would
        response = await fetch(url);
        if (response.status !== 503) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const body = await response.json() as { counts?: Record<string, number> };
      const first = performance.now() - started;
      started = performance.now();
      await (await fetch(url)).json();
      const again = performance.now() - started;
      const c = body.counts;
      console.log(`changes ${slug} ${from} → ${to}: first ${first.toFixed(0)} ms, again ${again.toFixed(1)} ms; ${response.status === 200 && c ? `removed ${c.removed}, moved ${c.moved}, signature ${c.signature}, deprecated ${c.deprecated}, added ${c.added}, unchanged ${c.unchanged}, notes ${c.notes}` : `status ${response.status}`}`);
    }
  }
} finally {
  await server.close();
}
console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString().slice(0, 16)}`);
