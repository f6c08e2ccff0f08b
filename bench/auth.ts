// `npm run bench:auth`: what API-key checks and rate-limit counters cost per request, on one server and query.
// Variants: auth off (baseline) vs required; key checks and (on PostgreSQL) counters in the database vs in memory.
// BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL instead of the embedded store.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createAuth, type AuthOptions } from '../src/auth/index.ts';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { buildServer } from '../src/http/server.ts';
import { createLogger } from '../src/log.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = 32;
const databaseUrl = process.env.BENCH_DATABASE_URL;
const store = databaseUrl ? 'postgres' : 'pglite';

interface Variant { label: string; auth: 'off' | 'required'; options: AuthOptions }
// On the embedded store the HTTP limiter keeps its counters in process memory whatever these options say
// (src/http/rate-limit.ts), so only the key check varies there.
const variants: Variant[] = store === 'postgres' ? [
  { label: 'auth off, memory counters (baseline)', auth: 'off', options: { databaseCounters: false } },
  { label: 'auth off, database counters', auth: 'off', options: { databaseCounters: true } },
  { label: 'auth required, db counters, db key check', auth: 'required', options: {} },
] : [
  { label: 'auth off (baseline)', auth: 'off', options: {} },
  { label: 'auth required, database key check', auth: 'required', options: { cacheVerifiedKeys: false } },
  { label: 'auth required, cached key check (default)', auth: 'required', options: {} },
];

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-bench-auth-'));
const logger = createLogger('warn');
const base = loadConfig({ TOOLDEX_HOME: home, LOG_LEVEL: 'warn', TOOLDEX_RATE_LIMIT_RPM: 1_000_000, DATABASE_URL: databaseUrl });
const app = await createApp(base, logger);
const { key } = await app.auth.keys.createForOrgName({ org: `bench-${Date.now()}`, name: 'bench', createdBy: 'bench' });

async function run(variant: Variant, round: number) {
  const config = { ...base, TOOLDEX_AUTH: variant.auth };
  const auth = createAuth(app.store, config, logger, variant.options);
  const server = await buildServer({ ...app, config, auth });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  const result = await autocannon({
    url: `${url}/tools/search?q=http%20client&limit=5`, connections: CONNECTIONS, duration: DURATION_S,
    headers: variant.auth === 'required' ? { authorization: `Bearer ${key}` } : {},
  });
  await server.close();
  await auth.close();
  const errors = result.errors + result.timeouts + result.non2xx;
  console.log(`load ${store} ${variant.label.padEnd(44)} round ${round} c=${CONNECTIONS} ${DURATION_S}s p50=${result.latency.p50}ms p99=${result.latency.p99}ms req/s=${Math.round(result.requests.average)} errors=${errors}`);
}

// Two interleaved rounds: on a shared machine the spread between rounds shows the noise.
for (const round of [1, 2]) for (const variant of variants) await run(variant, round);

for (const cacheVerifiedKeys of [false, true]) {
  const auth = createAuth(app.store, { TOOLDEX_AUTH: 'required' }, logger, { cacheVerifiedKeys });
  const rounds = 2000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) await auth.verifyKey(key);
  console.log(`verifyKey ${store} ${cacheVerifiedKeys ? 'cached in process' : 'database lookup'}: ${(Number(process.hrtime.bigint() - started) / rounds / 1000).toFixed(0)} µs per call (${rounds} sequential)`);
  await auth.close();
}
await app.close();
fs.rmSync(home, { recursive: true, force: true });
console.log(`machine: ${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, load avg ${os.loadavg()[0]?.toFixed(1)}`);
