// The test request and response of POST /tools/test, described once: HTTP, MCP and the CLI validate with these.
import { z } from 'zod';

export const RUNTIMES = ['node', 'python', 'golang', 'ruby', 'rust'] as const;
export type Runtime = (typeof RUNTIMES)[number];

/**
 * The status rules (docs/sandbox.md): `timeout` when a step ran past its wall clock; else `limit_exceeded` when another
 * limit ended or crippled a step (memory reached, a fork refused, output past 1 MiB, the session's volume full), with
 * `endedBy` and the program's own exitCode, 0 included; else `failed_install` / `failed_run` for a non-zero exit or a
 * signal; `ran` exactly for exit code 0 with no limit reached. `failed_run` never carries exitCode 0.
 */
export const TEST_STATUSES = ['ran', 'failed_install', 'failed_run', 'timeout', 'limit_exceeded', 'blocked', 'unavailable'] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];

/** Snippet languages each runtime runs; a language of another runtime is refused (422), never run by the wrong interpreter. */
export const RUNTIME_LANGUAGES: Record<Runtime, readonly string[]> = {
  node: ['javascript', 'typescript', 'js', 'ts', 'jsx', 'tsx', 'mjs', 'cjs', 'node', 'nodejs'],
  python: ['python', 'py', 'python3'],
  golang: ['go', 'golang'],
  ruby: ['ruby', 'rb'],
  rust: ['rust', 'rs'],
};
/** Source-file extensions of each runtime: an entry with another runtime's extension is refused. */
export const RUNTIME_EXTENSIONS: Record<Runtime, readonly string[]> = {
  node: ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.tsx', '.jsx'],
  python: ['.py'],
  golang: ['.go'],
  ruby: ['.rb'],
  rust: ['.rs'],
};
/** Shortest secret accepted: shorter values would redact ordinary text (a 1-character secret redacts every such character). */
export const MIN_SECRET_LENGTH = 8;

/** A session's network switch for its run step. */
export const NETWORK_MODES = ['on', 'off'] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];

export const MAX_FILES = 20;
export const MAX_FILE_BYTES = 256 * 1024;

const relativePath = z.string().min(1).max(255)
  .describe('Relative path inside the sandbox workspace, e.g. "index.ts" or "src/main.rs".');

export const testFileSchema = z.object({
  path: relativePath,
  code: z.string().max(MAX_FILE_BYTES).describe('The file content.'),
}).strict();

export const envItemSchema = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'an environment variable name ([A-Za-z_][A-Za-z0-9_]*)'),
  value: z.string().max(32 * 1024).optional().describe('Plain value; may appear in output.'),
  secret: z.string().min(MIN_SECRET_LENGTH, `a secret has at least ${MIN_SECRET_LENGTH} characters (shorter ones would redact ordinary text)`)
    .max(32 * 1024).optional()
    .describe(`Secret value (at least ${MIN_SECRET_LENGTH} characters): reaches the program; redacted from every later response of the session and never stored.`),
}).strict().refine((item) => item.value !== undefined || item.secret !== undefined, {
  message: 'each env item needs a value or a secret',
}).meta({ anyOf: [{ required: ['value'] }, { required: ['secret'] }] }); // the refine, as JSON Schema (OpenAPI, MCP)

export const testRequestSchema = z.object({
  language: z.string().min(1).max(40).describe('Snippet language, e.g. typescript, javascript, python, go, ruby, rust.'),
  runtime: z.enum(RUNTIMES).describe('Sandbox runtime: node, python, golang, ruby or rust.'),
  files: z.array(testFileSchema).max(MAX_FILES).default([])
    .describe(`1 to ${MAX_FILES} files; may be empty only with sessionId and entry. A Cargo.toml (rust), go.mod (golang) or package.json (node) at the top is honoured: its registry dependencies are installed like packages (git, path, workspace and URL dependencies: 422 invalid_manifest).`),
  packages: z.array(z.string().min(1).max(214)).max(50).default([])
    .describe('Packages to install, optionally pinned (zod@3.23.8, requests==2.32.3, serde@1); Rust crate features in brackets after the version, like pip extras (tokio@1[macros,rt-multi-thread,time]); -default among them turns the default features off (hex@0.4[-default]).'),
  entry: z.string().min(1).max(255).optional().describe('File to run; defaults to the first file.'),
  sessionId: z.string().min(1).max(100).optional().describe('Session from an earlier call: reuses its files and packages.'),
  slug: z.string().max(300).optional().describe('Directory slug the snippet tests (analytics).'),
  env: z.array(envItemSchema).max(50).default([]).describe('Environment variables for the program.'),
  network: z.enum(NETWORK_MODES).optional()
    .describe('Network of the run step: "on" (the internet, never the host or private ranges) or "off" (no route at all: loopback only). Installs still fetch either way. Kept in the session: a later call without it keeps the session\'s setting; a new session starts "on".'),
  timeoutMs: z.number().int().min(1000).max(60000).default(30000)
    .describe('Wall-clock limit in ms (1000–60000) of the program\'s run. Builds (compiles, build scripts) and source-package installs have the server\'s own build limits (TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS, default 300 s; TOOLDEX_SANDBOX_BUILD_MEMORY_MB, default 2048 MiB).'),
}).strict().superRefine((request, ctx) => {
  if (request.files.length === 0 && !(request.sessionId && request.entry)) {
    ctx.addIssue({ code: 'custom', path: ['files'], message: 'files needs 1 to 20 items unless sessionId and entry are both given' });
  }
  const languages = RUNTIME_LANGUAGES[request.runtime];
  if (!languages.includes(request.language.toLowerCase())) {
    const owner = RUNTIMES.find((runtime) => RUNTIME_LANGUAGES[runtime].includes(request.language.toLowerCase()));
    ctx.addIssue({
      code: 'custom', path: ['language'],
      message: owner
        ? `${request.language} runs on the ${owner} runtime, not ${request.runtime}; send runtime "${owner}"`
        : `the ${request.runtime} runtime runs ${languages.slice(0, 2).join(' or ')}, not ${request.language}`,
    });
    return;
  }
  const entry = (request.entry ?? request.files[0]?.path ?? '').toLowerCase();
  const extension = /\.[a-z0-9]+$/.exec(entry)?.[0];
  const other = extension && RUNTIMES.find((runtime) => runtime !== request.runtime && RUNTIME_EXTENSIONS[runtime].includes(extension));
  if (other) {
    ctx.addIssue({ code: 'custom', path: ['entry'], message: `"${entry.slice(0, 80)}" is a ${other} file; the ${request.runtime} runtime does not run it` });
  }
}).meta({
  // The rules above, as JSON Schema (OpenAPI, MCP tool lists, Schemathesis): files or a session's entry, and a language
  // and entry file that the runtime runs.
  allOf: [{ anyOf: [{ required: ['files'], properties: { files: { minItems: 1 } } }, { required: ['sessionId', 'entry'] }] }, { anyOf: runtimeRules() }],
});

/** Per runtime: its languages (any case) and no entry file (given, or else the first file) of another runtime. */
function runtimeRules(): Array<Record<string, unknown>> {
  const caseless = (text: string) => [...text].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c.replace(/[.+]/g, '\\$&'))).join('');
  return RUNTIMES.map((runtime) => {
    const foreign = RUNTIMES.filter((other) => other !== runtime).flatMap((other) => RUNTIME_EXTENSIONS[other]);
    const foreignFile = { not: { pattern: `\\.(?:${foreign.map((ext) => caseless(ext.slice(1))).join('|')})$` } };
    return {
      properties: {
        runtime: { const: runtime },
        language: { pattern: `^(?:${RUNTIME_LANGUAGES[runtime].map(caseless).join('|')})$` },
        entry: foreignFile,
      },
      if: { not: { required: ['entry'] } },
      then: { properties: { files: { prefixItems: [{ properties: { path: foreignFile } }] } } },
    };
  });
}

export type TestRequest = z.infer<typeof testRequestSchema>;

export interface TestPhases {
  /** Waiting for a slot: the session's previous call, the owner's concurrency cap, the server's slots (always sent). */
  queueMs?: number;
  /** Sandbox set-up of every step (session volume, namespaces, network, cgroups), never the program's own time. */
  provisionMs: number;
  /** Package installs (fetch steps, and source builds of packages). */
  installMs: number;
  /** Builds (compiles, build scripts) and the program itself. */
  runMs: number;
}

export const LIMIT_NAMES = ['timeout', 'memory', 'processes', 'output', 'disk', 'inodes'] as const;
/** Which limit ended a step, in which phase, and the numbers: the caller sees why, not only that. */
export interface EndedBy {
  limit: (typeof LIMIT_NAMES)[number];
  phase: 'install' | 'build' | 'run';
  /** The limit, in `unit`. */
  max: number;
  /** What was used when it ended, in `unit` (disk and inodes). */
  used?: number;
  unit: 'ms' | 'bytes' | 'files' | 'processes';
}

export interface TestResult {
  ok: boolean;
  status: TestStatus;
  phases: TestPhases;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  sessionId: string;
  sessionExpiresAt: null;
  sessionReused: boolean;
  /** Present when a sandbox limit (not the program on its own) ended a step. */
  endedBy?: EndedBy;
  error?: { code: string; message: string };
}

/** Who a session belongs to: an organisation id when authentication is on, else the client's address. */
export type SessionOwner = string;

export interface Sandbox {
  /** `forwarded`: the call came from another instance of the fleet (it is never forwarded again). */
  run(request: TestRequest, owner: SessionOwner, options?: { forwarded?: boolean }): Promise<TestResult>;
  close(): Promise<void>;
}
