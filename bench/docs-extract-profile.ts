// Where one package's extraction time goes, on the calling thread: the artifact is downloaded once, then extraction runs
// REPEAT times on this thread; the hash of what it made shows a change that should not alter passages did not. Run under --cpu-prof to see which extractor's code the time is in.
//   BENCH_PACKAGES=npm:lodash@4.18.1,npm:zod@4.6.7 node --cpu-prof --cpu-prof-dir=prof --import tsx bench/docs-extract-profile.ts
import crypto from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { passagesFromArtifact } from '../src/docs/documents.ts';
import { sourceFor } from '../src/docs/sources/index.ts';
import type { Ecosystem } from '../src/catalog/types.ts';

const config = loadConfig({ TOOLDEX_HOME: os.tmpdir() }, process.env);
const repeat = Number(process.env.BENCH_REPEAT ?? 3);
for (const tool of (process.env.BENCH_PACKAGES ?? 'npm:lodash@4.18.1').split(',')) {
  const [ecosystem, rest] = [tool.slice(0, tool.indexOf(':')), tool.slice(tool.indexOf(':') + 1)];
  const at = rest.lastIndexOf('@');
  const name = rest.slice(0, at), version = rest.slice(at + 1);
  const artifact = await sourceFor(config, ecosystem as Ecosystem).artifact(name, version);
  const bytes = artifact.files.reduce((a, f) => a + f.bytes.byteLength, 0);
  for (let i = 0; i < repeat; i++) {
    const started = performance.now();
    const result = await passagesFromArtifact(artifact, { ecosystem, name, version });
    const total = performance.now() - started;
    console.log(`${tool} run ${i + 1}: ${Math.round(total)} ms, ${result.passages.length} passages (sha ${crypto.createHash('sha256').update(JSON.stringify(result)).digest('hex').slice(0, 12)}), ${artifact.files.length} files ${(bytes / 1e6).toFixed(1)} MB; load ${os.loadavg()[0]!.toFixed(1)}`);
  }
}
process.exit(0);
