// The one config: reads the environment once, validates it with a schema, and is the only reader of process.env.
// Every setting is described here; `npm run config-table` prints the README's configuration table from this schema.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const intFrom = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const configSchema = z.object({
  PORT: intFrom(8080, 0, 65535).describe('TCP port of the HTTP server (0 picks a free one).'),
  HOST: z.string().default('0.0.0.0').describe('Address the HTTP server listens on.'),
  TOOLDEX_HOME: z.string().default(path.join(os.homedir(), '.tooldex'))
    .describe('Folder of the embedded store (PGlite), sandbox sessions, docs cache and the admin socket.'),
  DATABASE_URL: z.string().optional()
    .describe('postgres://… URL: use a PostgreSQL server instead of the embedded store (several instances may share it).'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')
    .describe('Structured (JSON) log level, written to stderr.'),
  TOOLDEX_RATE_LIMIT_RPM: intFrom(600, 1, 1_000_000)
    .describe('Requests per minute per API key (per client IP when auth is off) on every endpoint.'),
  TOOLDEX_SEARCH_CACHE: intFrom(2000, 0, 1_000_000)
    .describe('Ranked search answers kept in memory until the catalog changes (0 turns the cache off).'),
  TOOLDEX_TEST_RPM: intFrom(5, 1, 100_000).describe('Dedicated limit of POST /tools/test per minute per key or IP.'),
  TOOLDEX_AUTH: z.enum(['off', 'required']).default('off')
    .describe('`required` makes /tools/* and /mcp need `Authorization: Bearer <API_KEY>`.'),
  REDIS_URL: z.string().optional()
    .describe('redis://… URL: keep rate-limit counters in Redis (shared by every instance) instead of the database.'),
  TOOLDEX_SECURE_COOKIES: z.enum(['auto', 'always', 'never']).default('auto')
    .describe('Dashboard cookies get `Secure`: `auto` when the request came over TLS (or `X-Forwarded-Proto: https`).'),
  TOOLDEX_SNAPSHOT: z.string().optional()
    .describe('Catalog snapshot loaded into an empty store (default: data/catalog.jsonl.gz of the package).'),
  TOOLDEX_URL: z.string().default('http://localhost:8080').describe('Server the CLI client commands talk to.'),
  TOOLDEX_API_KEY: z.string().optional().describe('API key the CLI and `tooldex mcp --url` send.'),
  TOOLDEX_SANDBOX_CONCURRENCY: intFrom(os.availableParallelism(), 1, 256)
    .describe('Sandbox runs in parallel (different sessions); more queue.'),
  TOOLDEX_SANDBOX_QUEUE: intFrom(32, 0, 10_000).describe('Sandbox runs that may wait for a slot before 503.'),
  TOOLDEX_SANDBOX_DISK_MB: intFrom(4096, 16, 10_000_000)
    .describe('Disk budget of all sandbox sessions; least recently used idle sessions are evicted past it.'),
  TOOLDEX_SANDBOX_MEMORY_MB: intFrom(512, 32, 1_000_000).describe('Memory limit of one sandbox run.'),
  TOOLDEX_DENY_PACKAGES: z.string().default('').describe('Comma-separated packages a sandbox may not install (status `blocked`).'),
  TOOLDEX_DISABLED_RUNTIMES: z.string().default('').describe('Comma-separated runtimes turned off (status `blocked`).'),
  TOOLDEX_SANDBOX_UID: intFrom(61000, 1, 4_294_967_294)
    .describe('Unprivileged host uid (and gid) sandboxes run as; never 0.'),
  TOOLDEX_SANDBOX_SESSION_MB: intFrom(1024, 16, 10_000_000)
    .describe('Disk quota of one sandbox session (workspace plus installed packages); a run past it is killed.'),
  TOOLDEX_SANDBOX_PIDS: intFrom(256, 16, 100_000).describe('Process/thread limit of one sandbox run.'),
  TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS: intFrom(300_000, 5_000, 3_600_000)
    .describe('Wall-clock limit of a package install or a go/rust build (the run itself uses the request timeoutMs).'),
  TOOLDEX_SANDBOX_CACHE_DIR: z.string().optional()
    .describe('Shared package/build caches of the sandboxes (default TOOLDEX_HOME/sandbox/cache); written only by trusted install steps.'),
  TOOLDEX_BWRAP: z.string().default('bwrap').describe('bubblewrap binary the sandbox uses.'),
  TOOLDEX_TOOLCHAIN_PATH: z.string().optional()
    .describe('Colon-separated folders searched for python3, go, rustc and ruby (default: the server\'s PATH).'),
  TOOLDEX_GEM_SOURCE: z.string().optional()
    .describe('Gem source sandboxes install from (default TOOLDEX_RUBYGEMS_URL); a loopback URL is reachable from the install step only.'),
  TOOLDEX_DOCS_REFRESH_HOURS: intFrom(6, 0, 10_000).describe('How often indexed docs are checked for a newer published version.'),
  TOOLDEX_DOCS_SITES: z.enum(['off', 'background', 'inline']).default('background')
    .describe('Crawl the documentation site (llms.txt, sitemap, same-origin pages): after answering from the artifact (background), inside the first request (inline), or never (off).'),
  TOOLDEX_DOCS_PRIVATE_SITES: z.enum(['deny', 'allow']).default('deny')
    .describe('`allow` lets the docs crawler fetch loopback/private addresses (tests, intranet docs); denied by default against SSRF.'),
  TOOLDEX_DOCS_MAX_ARTIFACT_MB: intFrom(50, 1, 2048).describe('Largest package artifact (compressed) the docs indexer downloads.'),
  TOOLDEX_DOCS_MAX_PAGES: intFrom(60, 0, 10_000).describe('Pages the docs-site crawler fetches per tool version.'),
  TOOLDEX_FETCH_TIMEOUT_MS: intFrom(15_000, 100, 600_000).describe('Timeout of every registry or docs-site fetch.'),
  TOOLDEX_NPM_REGISTRY: z.string().default('https://registry.npmjs.org').describe('npm registry base URL.'),
  TOOLDEX_PYPI_URL: z.string().default('https://pypi.org').describe('PyPI base URL (JSON API).'),
  TOOLDEX_CRATES_URL: z.string().default('https://crates.io').describe('crates.io base URL (web pages and API).'),
  TOOLDEX_CRATES_INDEX_URL: z.string().default('https://index.crates.io').describe('crates.io sparse index base URL.'),
  TOOLDEX_CRATES_DOWNLOAD_URL: z.string().default('https://static.crates.io/crates')
    .describe('Base URL of .crate downloads (<base>/<name>/<name>-<version>.crate).'),
  TOOLDEX_GOPROXY: z.string().default('https://proxy.golang.org').describe('Go module proxy base URL.'),
  TOOLDEX_RUBYGEMS_URL: z.string().default('https://rubygems.org').describe('RubyGems base URL (API and gem files).'),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigOverrides = Partial<Config>;

/** Reads the environment once; explicit overrides (CLI flags, tests) win over it. */
export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const fromEnv: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') fromEnv[key] = value;
  }
  const merged = { ...fromEnv, ...stripUndefined(overrides) };
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const listSetting = (value: string): string[] =>
  value.split(',').map((item) => item.trim()).filter(Boolean);
