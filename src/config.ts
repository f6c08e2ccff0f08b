// The one config: reads the environment once, validates it with a schema, and is the only reader of process.env.
// Every setting is described here; `npm run config-table` prints the README's configuration table from this schema.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const intFrom = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const configSchema = z.object({
  PORT: intFrom(8080, 0, 65535).describe('TCP port of the HTTP server (0 picks a free one).'),
  HOST: z.string().default('127.0.0.1')
    .describe('Address the HTTP server listens on: loopback by default, as local tools do; `0.0.0.0` (or `::`) to serve other machines.'),
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
  TOOLDEX_PROJECT_TTL_HOURS: intFrom(168, 1, 8760)
    .describe('How long a project from POST /tools/resolve stays usable as `project` in docs, context and test calls (its owner only).'),
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
  // Sandbox (src/sandbox, docs/sandbox.md): capacity, fair sharing, limits, identity, caches, secrets.
  TOOLDEX_SANDBOX_CONCURRENCY: intFrom(Math.max(2, 2 * os.availableParallelism()), 1, 256)
    .describe('Sandbox runs in parallel (different sessions; CPU is shared by weight, one core at most per run); more queue.'),
  TOOLDEX_SANDBOX_OWNER_CONCURRENCY: intFrom(0, 0, 256)
    .describe('Sandbox runs of one owner (organisation, or client address with auth off) in parallel; 0 = half of TOOLDEX_SANDBOX_CONCURRENCY, at least 1.'),
  TOOLDEX_SANDBOX_QUEUE: intFrom(32, 0, 10_000).describe('Sandbox runs that may wait for a slot before 503.'),
  TOOLDEX_SANDBOX_DISK_MB: intFrom(4096, 16, 10_000_000)
    .describe('Host disk all sandbox sessions of this instance may use (allocated blocks of their volumes); past it, idle sessions are evicted (TOOLDEX_SANDBOX_EVICT_IDLE_MINUTES) and new sessions of owners with nothing to give back answer 507.'),
  TOOLDEX_SANDBOX_OWNER_DISK_MB: intFrom(0, 0, 10_000_000)
    .describe('Host disk the sandbox sessions of one owner may use on this instance; past it, that owner\'s own least recently used sessions are evicted (its most recently used one stays). 0 = half of TOOLDEX_SANDBOX_DISK_MB; never more than it.'),
  TOOLDEX_SANDBOX_OWNER_SESSIONS: intFrom(16, 1, 100_000)
    .describe('Sandbox sessions one owner may hold on this instance; a new one past it evicts the owner\'s least recently used idle session (429 when all are busy).'),
  TOOLDEX_SANDBOX_EVICT_IDLE_MINUTES: intFrom(60, 1, 525_600)
    .describe('While this instance is over TOOLDEX_SANDBOX_DISK_MB, sessions idle this long may be evicted whoever owns them (least recently used first); younger sessions of owners within their budget never are.'),
  TOOLDEX_SANDBOX_FORWARD_RPM: intFrom(600, 1, 100_000)
    .describe('Requests per minute per client address to the fleet\'s internal route POST /internal/sandbox/test (bad signatures included).'),
  TOOLDEX_SANDBOX_MEMORY_MB: intFrom(512, 32, 1_000_000).describe('Memory limit of one sandbox run (its /tmp counts too).'),
  TOOLDEX_SANDBOX_BUILD_MEMORY_MB: intFrom(2048, 128, 1_000_000)
    .describe('Memory limit of a sandbox\'s install and build steps (fetches, compiles such as `go build` and `cargo build`, source-package installs; /tmp counts too); the program itself keeps TOOLDEX_SANDBOX_MEMORY_MB.'),
  TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS: intFrom(300_000, 5_000, 3_600_000)
    .describe('Wall-clock limit of a sandbox\'s build step (compiles, build scripts) and of a source-package install; the program itself keeps the request\'s timeoutMs.'),
  TOOLDEX_SANDBOX_LAYERS_MB: intFrom(4096, 16, 10_000_000)
    .describe('Host disk the sandbox\'s compiled layers (Go packages and Rust dependencies compiled once per exact dependency graph, shared read-only by builds) may use together; past it, the least recently used go (never one used within twice TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS).'),
  TOOLDEX_SANDBOX_CACHE_MB: intFrom(8192, 1, 10_000_000)
    .describe('Host disk the sandbox\'s shared download caches (bun\'s, pip\'s, Go\'s module and build caches, cargo\'s registry; one per runtime) may use together, checked after every call that fetched; past it, idle runtimes\' caches are emptied, least recently used first, and fill again on demand. Compiled layers have TOOLDEX_SANDBOX_LAYERS_MB.'),
  TOOLDEX_DENY_PACKAGES: z.string().default('').describe('Comma-separated packages a sandbox may not install (status `blocked`).'),
  TOOLDEX_DISABLED_RUNTIMES: z.string().default('').describe('Comma-separated runtimes turned off (status `blocked`).'),
  TOOLDEX_SANDBOX_UID: intFrom(61000, 1, 4_294_967_294)
    .describe('Unprivileged host uid (and gid) sandboxes run as; never 0. slirp4netns runs with this gid, and the host firewall rules match it.'),
  TOOLDEX_SANDBOX_SESSION_MB: intFrom(1024, 16, 10_000_000)
    .describe('Disk quota of one sandbox session (workspace, packages, build output), counted in filesystem blocks: its own ext4 volume.'),
  TOOLDEX_SANDBOX_SESSION_INODES: intFrom(100_000, 1_000, 10_000_000).describe('Files (inodes) one sandbox session may hold.'),
  TOOLDEX_SANDBOX_TMP_MB: intFrom(256, 8, 1_000_000).describe('Size of each run\'s private /tmp (memory, counted in the run\'s memory limit).'),
  TOOLDEX_SANDBOX_PIDS: intFrom(256, 16, 100_000).describe('Process/thread limit of one sandbox run.'),
  TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS: intFrom(300_000, 5_000, 3_600_000)
    .describe('Wall-clock budget of a fetch step (registry downloads, no package code); builds and source-package installs have TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS, the program the request timeoutMs.'),
  TOOLDEX_SANDBOX_CACHE_DIR: z.string().optional()
    .describe('Shared package/build caches of the sandboxes (default TOOLDEX_HOME/sandbox/cache); written only by fetch steps, read-only to everything else.'),
  TOOLDEX_SANDBOX_SECRET_KEY: z.string().optional()
    .describe('Key (32+ bytes, hex or base64) of the marks sessions keep to redact their secrets; default: generated into TOOLDEX_HOME/sandbox/redaction.key. Instances sharing a database must share it.'),
  TOOLDEX_SANDBOX_INSTANCE_URL: z.string().optional()
    .describe('URL the other instances of a fleet reach this one at (e.g. http://10.0.0.5:8080): calls for sandbox sessions held here are forwarded to it. Unset: sessions are usable only on this instance.'),
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
  // Run-verified quickstarts (src/quickstart): background verification of each tool version's quickstart in the sandbox.
  TOOLDEX_QUICKSTART_VERIFY: z.enum(['on', 'off']).default('on')
    .describe('Verify quickstarts in the sandbox in the background (`off`: contexts carry the docs\' example, marked unverifiable).'),
  TOOLDEX_QUICKSTART_CONCURRENCY: intFrom(1, 1, 64).describe('Quickstart verifications run at once by this instance (each uses one sandbox slot).'),
  TOOLDEX_QUICKSTART_WAIT_MS: intFrom(2000, 0, 60_000)
    .describe('How long a context request waits for its version\'s verification (started by it, or already running on this instance) before answering `pending`.'),
  TOOLDEX_QUICKSTART_MAX_RUNS: intFrom(8, 1, 50).describe('Sandbox runs one verification may spend trying candidates and repairs.'),
  TOOLDEX_QUICKSTART_NETWORK_EXAMPLES: z.enum(['last', 'never']).default('last')
    .describe('Examples that call third-party hosts are tried after all others (`last`) or not at all (`never`: machines that must not reach the internet).'),
  TOOLDEX_QUICKSTART_RETRY_MS: intFrom(30_000, 100, 86_400_000)
    .describe('First wait before retrying a verification after a registry or sandbox fault; each later wait is 4× longer.'),
  TOOLDEX_QUICKSTART_ATTEMPTS: intFrom(5, 1, 20).describe('Attempts of one verification before its last fault becomes its final state.'),
  TOOLDEX_QUICKSTART_SWEEP_SECONDS: intFrom(30, 0, 86_400)
    .describe('How often an instance picks up due retries, abandoned verifications and newly indexed versions (0: never).'),
  TOOLDEX_FETCH_TIMEOUT_MS: intFrom(15_000, 100, 600_000).describe('Timeout of every registry or docs-site fetch.'),
  TOOLDEX_NPM_REGISTRY: z.string().default('https://registry.npmjs.org').describe('npm registry base URL.'),
  // Catalog (src/catalog, docs/search.md): npm's download counts for `tooldex ingest` (monthly, by name).
  TOOLDEX_NPM_DOWNLOADS_URL: z.string().default('https://api.npmjs.org').describe('npm downloads API base URL (`tooldex ingest` popularity).'),
  TOOLDEX_PYPI_URL: z.string().default('https://pypi.org').describe('PyPI base URL (JSON API).'),
  TOOLDEX_CRATES_URL: z.string().default('https://crates.io').describe('crates.io base URL (web pages and API).'),
  TOOLDEX_CRATES_INDEX_URL: z.string().default('https://index.crates.io').describe('crates.io sparse index base URL.'),
  TOOLDEX_CRATES_DOWNLOAD_URL: z.string().default('https://static.crates.io/crates')
    .describe('Base URL of .crate downloads (<base>/<name>/<name>-<version>.crate).'),
  TOOLDEX_GOPROXY: z.string().default('https://proxy.golang.org').describe('Go module proxy base URL.'),
  TOOLDEX_RUBYGEMS_URL: z.string().default('https://rubygems.org').describe('RubyGems base URL (API and gem files).'),
  // Semantic ranking (src/semantic, docs/semantic.md): the local static model, or an OpenAI-compatible endpoint.
  TOOLDEX_SEMANTIC: z.enum(['auto', 'on', 'off']).default('auto')
    .describe('Ranking by meaning: `auto` uses the model when installed (else full-text only, with a warning), `on` requires it, `off` is full-text only.'),
  TOOLDEX_SEMANTIC_MODEL_DIR: z.string()
    .default(path.resolve(import.meta.dirname, '..', 'data', 'semantic', 'tooldex-static-minilm-l6-v2-256-r1'))
    .describe('Local static embedding model: the one shipped in data/semantic/ (integrity-checked at load), or a folder built by `npm run semantic:model -- --out <dir>`.'),
  TOOLDEX_SEMANTIC_ENCODER: z.enum(['auto', 'off']).default('auto')
    .describe('Sentence encoder for docs passages and questions (whole-text meaning): `auto` uses the shipped transformer when it loads (else the static model alone, with a warning), `off` leaves it out. Unused when TOOLDEX_EMBEDDINGS_URL is set (the endpoint serves that role) or TOOLDEX_SEMANTIC=off.'),
  TOOLDEX_SEMANTIC_ENCODER_DIR: z.string()
    .default(path.resolve(import.meta.dirname, '..', 'data', 'semantic', 'tooldex-bge-small-en-v1.5-onnx-int8-r1'))
    .describe('Local sentence encoder: the int8 ONNX encoder of BAAI/bge-small-en-v1.5 shipped in data/semantic/ (integrity-checked at load), or a folder made by scripts/semantic/import_bge.py or scripts/semantic/export_onnx.py (all-MiniLM-L6-v2).'),
  TOOLDEX_SEMANTIC_CACHE: intFrom(10_000, 0, 10_000_000).describe('Query vectors kept in memory (LRU; 0 turns the cache off).'),
  TOOLDEX_DOCS_INDEX_CACHE: intFrom(64, 1, 100_000)
    .describe('Packages whose docs search index (passages, word index, passage vectors) is kept in memory, least recently used dropped first; a dropped one is read back from the store on its next question.'),
  TOOLDEX_DOCS_EXTRACTION_IDLE_MS: intFrom(120_000, 1000, 86_400_000)
    .describe('The docs extraction thread (the parsers: TypeScript compiler, tree-sitter grammars) stops after this long without a package to parse and gives its memory back; a first question that finds it stopped pays its start (about 1-4 s under load). Longer keeps first questions fast across quiet spells and holds the memory meanwhile.'),
  TOOLDEX_SEMANTIC_ENCODER_THREADS: intFrom(Math.max(1, os.availableParallelism() - 1), 1, 256)
    .describe('Threads of the local sentence encoder, each with its own model session (~60 MB): default the cores less one (at least 1), leaving a core to the event loop.'),
  TOOLDEX_SEMANTIC_ENCODER_BATCH: intFrom(8, 1, 256)
    .describe('Docs questions an encoder thread is sent ahead of its answers (each is still its own model call, so its vector does not depend on the others, and is answered as soon as it is computed).'),
  TOOLDEX_SEMANTIC_ENCODER_QUEUE: intFrom(8, 0, 1_000_000)
    .describe('Back-pressure: when more docs questions than this wait for the sentence encoder, a new question is ranked without it (words and stored vectors) and its answer says `ranking: "lexical"`, instead of waiting (0: no bound, always wait).'),
  TOOLDEX_SEMANTIC_ENCODER_WAIT_MS: intFrom(20, 0, 600_000)
    .describe('Back-pressure in time: when a new docs question would wait longer than this for its vector from the sentence encoder (the questions queued or running ahead of it and its own, times the measured model time per question, shared by the threads; background passage embedding is not counted; a question a free thread starts at once always waits), it is ranked without it and its answer says `ranking: "lexical"` (0: no time bound). Applies beside TOOLDEX_SEMANTIC_ENCODER_QUEUE.'),
  TOOLDEX_SEMANTIC_ENCODER_IDLE_MS: intFrom(60_000, 0, 86_400_000)
    .describe('An encoder thread without work for this long stops and releases its model session (~150 MB resident); the next text starts one again (a few hundred ms). 0: threads never stop.'),
  TOOLDEX_EMBEDDINGS_URL: z.string().optional()
    .describe('OpenAI-compatible embeddings endpoint (e.g. http://host:8000/v1): used instead of the local model.'),
  TOOLDEX_EMBEDDINGS_KEY: z.string().optional().describe('Bearer key sent to TOOLDEX_EMBEDDINGS_URL.'),
  TOOLDEX_EMBEDDINGS_MODEL: z.string().default('text-embedding-3-small').describe('`model` sent to TOOLDEX_EMBEDDINGS_URL.'),
  TOOLDEX_EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(1).max(65535).optional()
    .describe('`dimensions` sent to TOOLDEX_EMBEDDINGS_URL (models that can shorten vectors); default: the model\'s own.'),
  TOOLDEX_EMBEDDINGS_TIMEOUT_MS: intFrom(10_000, 100, 600_000).describe('Timeout of one request to TOOLDEX_EMBEDDINGS_URL.'),
  // Operating (issue 13): database waits and outages, draining on SIGTERM, docs ingestion scheduling.
  TOOLDEX_STORE_WAIT_MS: intFrom(120_000, 0, 86_400_000)
    .describe('How long start-up waits for PostgreSQL to answer, retrying with backoff (0: exit at once if it does not).'),
  TOOLDEX_STORE_BACKOFF_MAX_MS: intFrom(5000, 100, 600_000)
    .describe('Longest pause between two start-up attempts to reach PostgreSQL (pauses start at 250 ms and double).'),
  TOOLDEX_DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).optional()
    .describe('On SIGTERM, how long in-flight work (runs, ingestions, verifications) may finish before it is cut (default: the longest allowed run, install limit + 60 s run + 10 s).'),
  TOOLDEX_DOCS_DEADLINE_MS: intFrom(20_000, 1000, 600_000)
    .describe('Longest a docs or context request waits for a registry and indexing; then stale docs or 503 upstream_unavailable (indexing goes on).'),
  TOOLDEX_DOCS_INGESTIONS_PER_REGISTRY: intFrom(2, 1, 64)
    .describe('Docs ingestions at once per registry in one process (a slow registry holds only its own slots).'),
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

/** The drain deadline: the setting, else the longest a single sandbox request may take (install, build, then a 60 s run). */
export const drainTimeoutMs = (config: Pick<Config, 'TOOLDEX_DRAIN_TIMEOUT_MS' | 'TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS' | 'TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS'>): number =>
  config.TOOLDEX_DRAIN_TIMEOUT_MS ?? config.TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS + config.TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS + 60_000 + 10_000;

export const listSetting = (value: string): string[] =>
  value.split(',').map((item) => item.trim()).filter(Boolean);
