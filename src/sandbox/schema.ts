// The test request and response of POST /tools/test, described once: HTTP, MCP and the CLI validate with these.
import { z } from 'zod';

export const RUNTIMES = ['node', 'python', 'golang', 'ruby', 'rust'] as const;
export type Runtime = (typeof RUNTIMES)[number];

export const TEST_STATUSES = ['ran', 'failed_install', 'failed_run', 'timeout', 'blocked', 'unavailable'] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];

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
  secret: z.string().max(32 * 1024).optional().describe('Secret value: reaches the program, redacted from output and logs.'),
}).strict().refine((item) => item.value !== undefined || item.secret !== undefined, {
  message: 'each env item needs a value or a secret',
});

export const testRequestSchema = z.object({
  language: z.string().min(1).max(40).describe('Snippet language, e.g. typescript, javascript, python, go, ruby, rust.'),
  runtime: z.enum(RUNTIMES).describe('Sandbox runtime: node, python, golang, ruby or rust.'),
  files: z.array(testFileSchema).max(MAX_FILES).default([])
    .describe(`1 to ${MAX_FILES} files; may be empty only with sessionId and entry.`),
  packages: z.array(z.string().min(1).max(214)).max(50).default([])
    .describe('Packages to install, optionally pinned (zod@3.23.8, requests==2.32.3, serde@1).'),
  entry: z.string().min(1).max(255).optional().describe('File to run; defaults to the first file.'),
  sessionId: z.string().min(1).max(100).optional().describe('Session from an earlier call: reuses its files and packages.'),
  slug: z.string().max(300).optional().describe('Directory slug the snippet tests (analytics).'),
  env: z.array(envItemSchema).max(50).default([]).describe('Environment variables for the program.'),
  timeoutMs: z.number().int().min(1000).max(60000).default(30000).describe('Wall-clock limit in ms (1000–60000).'),
}).strict().superRefine((request, ctx) => {
  if (request.files.length === 0 && !(request.sessionId && request.entry)) {
    ctx.addIssue({ code: 'custom', path: ['files'], message: 'files needs 1 to 20 items unless sessionId and entry are both given' });
  }
});

export type TestRequest = z.infer<typeof testRequestSchema>;

export interface TestPhases {
  provisionMs: number;
  installMs: number;
  runMs: number;
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
  error?: { code: string; message: string };
}

/** Who a session belongs to: an organisation id when authentication is on, else the client's address. */
export type SessionOwner = string;

export interface Sandbox {
  run(request: TestRequest, owner: SessionOwner): Promise<TestResult>;
  close(): Promise<void>;
}
