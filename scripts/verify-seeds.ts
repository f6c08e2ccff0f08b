// Checks the names of data/seeds/crates.tsv and data/seeds/go.tsv against crates.io's sparse index and the Go module
// proxy, and prints how many exist. For a machine on the open internet: it asks the registry about every listed name
// (about 3,600 small requests, 8 in flight by default). `--remove` rewrites the seed files without the names the
// registry answered 404/410 for (never for names it could not ask about).
// Usage: node --import tsx scripts/verify-seeds.ts [--ecosystem crates,go] [--limit N] [--concurrency 8] [--remove]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadSeeds, SEEDS_DIR } from '../src/catalog/seeds.ts';
import { checkNames, withoutNames, type SeedCheck } from '../src/catalog/verify-seeds.ts';
import { loadConfig } from '../src/config.ts';

const { values } = parseArgs({ options: {
  ecosystem: { type: 'string', default: 'crates,go' }, limit: { type: 'string' }, concurrency: { type: 'string', default: '8' },
  remove: { type: 'boolean', default: false }, dir: { type: 'string', default: SEEDS_DIR },
} });
const config = loadConfig();
const options = {
  cratesIndexUrl: config.TOOLDEX_CRATES_INDEX_URL, goProxyUrl: config.TOOLDEX_GOPROXY,
  concurrency: Math.max(1, Math.min(32, Number(values.concurrency))), timeoutMs: config.TOOLDEX_FETCH_TIMEOUT_MS,
};
for (const ecosystem of values.ecosystem.split(',') as Array<'crates' | 'go'>) {
  if (ecosystem !== 'crates' && ecosystem !== 'go') throw new Error(`--ecosystem: crates or go, not ${String(ecosystem)}`);
  const seeds = loadSeeds(ecosystem, values.dir).filter((seed) => !seed.extra);
  const names = seeds.slice(0, values.limit ? Number(values.limit) : undefined).map((seed) => seed.name);
  const started = Date.now();
  const results = await checkNames(ecosystem, names, options, (done) => {
    if (done % 250 === 0) console.error(`${ecosystem}: ${done}/${names.length}`);
  });
  const count = (state: SeedCheck) => results.filter((result) => result === state).length;
  const missing = names.filter((_, i) => results[i] === 'missing');
  console.log(`${ecosystem}: ${names.length} names checked in ${((Date.now() - started) / 1000).toFixed(1)} s: `
    + `${count('exists')} exist, ${count('missing')} missing, ${count('unknown')} not answered`);
  if (missing.length) console.log(`  missing: ${missing.join(' ')}`);
  if (values.remove && missing.length) {
    const file = path.join(values.dir, `${ecosystem}.tsv`);
    fs.writeFileSync(file, withoutNames(fs.readFileSync(file, 'utf8'), new Set(missing)));
    console.log(`  removed ${missing.length} names from ${file}`);
  }
}
