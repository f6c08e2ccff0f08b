// The success bodies of the REST surface as zod schemas, for /openapi.json. Each is checked at compile time against
// the type its capability returns, so a renamed or removed field fails `npm run typecheck` instead of the docs drifting.
import { z } from 'zod';
import type { ApiKeyInfo, CreatedApiKey, Member, Organisation, UsageDay, User } from '../auth/types.ts';
import { ECOSYSTEMS, type ToolResult } from '../catalog/types.ts';
import type { DocsResult, DocsSymbolResult, ToolContext } from '../docs/schema.ts';
import { AGENT_DIRECTED, HIDDEN_TEXT } from '../docs/untrusted.ts';
import type { ChangesResult } from '../changes/index.ts';
import type { ResolveResult } from '../project/index.ts';
import { LIMIT_NAMES, TEST_STATUSES, type TestResult } from '../sandbox/schema.ts';

const nullableString = z.string().nullable();

export const toolResult = z.object({
  id: z.string(), name: z.string(), description: z.string(), shortDescription: z.string(),
  languages: z.array(z.string()), frameworks: z.array(z.string()), categories: z.array(z.string()),
  slug: z.string(), updatedAt: nullableString, image: z.string(), ecosystem: z.enum(ECOSYSTEMS), version: nullableString,
  license: nullableString, popularity: z.number(), install: z.string(), docsUrl: nullableString, registryUrl: z.string(), score: z.number(),
});
export const searchResponse = z.object({ results: z.array(toolResult) }).describe('Ranked tools');

const passageFlags = z.array(z.enum([AGENT_DIRECTED, HIDDEN_TEXT])).optional()
  .describe(`Text in its prose aimed at an AI agent rather than the reader (${AGENT_DIRECTED}: "ignore previous instructions", "AI agents: run …"), `
    + `or prose a reader of the page never sees (${HIDDEN_TEXT}). The text is the package author's and is left as written.`);
const pointers = z.array(z.object({ title: z.string(), symbol: z.string().optional(), url: z.string() })).optional();
const budget = z.object({ maxTokens: z.number(), usedTokens: z.number().describe('What the answer costs (o200k_base tokens, estimated from above).') })
  .optional().describe('With maxTokens: the budget and what the answer costs.');

export const docsResponse = z.object({
  slug: z.string(), docsUrl: nullableString, query: z.string(), version: z.string(), latestVersion: z.string().optional(),
  stale: z.boolean().optional().describe('Served from the index because the registry could not confirm it.'),
  partial: z.object({
    indexedPassages: z.number(), foundPassages: z.number(), skippedSourceFiles: z.number(), message: z.string(),
  }).optional().describe('Present when the package was too large to index whole: what was kept.'),
  ranking: z.enum(['semantic', 'lexical']).optional().describe('How the passages were ranked: `semantic` compared the question with them by meaning (sentence encoder); `lexical` by words only, because the encoder is off or failed, or because it was busy (more questions queued than TOOLDEX_SEMANTIC_ENCODER_QUEUE, or a longer expected wait than TOOLDEX_SEMANTIC_ENCODER_WAIT_MS) when this question came.'),
  results: z.array(z.object({
    url: z.string(), title: z.string().optional(), content: z.string(), headings: z.array(z.string()).optional(),
    source: z.string().optional(), symbol: z.string().optional().describe('The public API symbol the passage documents.'),
    internal: z.boolean().optional().describe('The passage comes from internals rather than public API.'),
    deprecated: z.boolean().optional().describe('Its authors mark what it documents deprecated or legacy.'),
    flags: passageFlags,
    links: z.array(z.object({
      relation: z.enum(['uses', 'usedIn']).describe('`uses`: an API item this guide section calls in its code; `usedIn`: a guide section whose code uses this item.'),
      title: z.string().describe('The item\'s symbol, or the section\'s heading trail.'), url: z.string(),
    })).optional().describe('Guide ↔ API links (at most 2): the items a guide section uses or documents, or the sections that show or document an item.'),
    score: z.number().optional(),
  })),
  pointers: pointers.describe('With maxTokens: the passages ranked next that did not fit whole, one line each.'),
  budget,
}).describe('Passages from the tool\'s own documentation');

export const docsSymbolResponse = z.object({
  slug: z.string(), docsUrl: nullableString, version: z.string(), latestVersion: z.string().optional(), stale: z.boolean().optional(),
  partial: z.object({ indexedPassages: z.number(), foundPassages: z.number(), skippedSourceFiles: z.number(), message: z.string() }).optional(),
  symbol: z.string().describe('The name as asked.'),
  found: z.boolean().describe('Whether the package has an item of that name (a miss is still a 200, with suggestions).'),
  exact: z.boolean().describe('The asked path is the item\'s own (a leading package name aside), not only its tail.'),
  item: z.object({
    symbol: z.string().describe('The item\'s full path in the package.'), signature: nullableString.describe('Its declaration.'),
    documentation: z.string().describe('Its documentation (Markdown; code blocks are in examples).'),
    examples: z.array(z.object({ language: z.string(), code: z.string(), url: z.string() }))
      .describe('Code from its own documentation, then from the guides and README that use it.'),
    source: z.string().describe('The file that defines it, inside the published artifact.'), url: z.string().describe('That file at its line.'),
    deprecated: z.boolean().optional(), internal: z.boolean().optional(), flags: passageFlags,
  }).optional().describe('The item, when found.'),
  suggestions: z.array(z.object({ symbol: z.string(), url: z.string(), score: z.number() }))
    .describe('On a miss, the closest names (never empty when the package has docs); on a hit, other items the name could mean.'),
  message: z.string().optional(),
  pointers: pointers.describe('With maxTokens: examples that did not fit.'),
  budget,
}).describe('One API item of the tool by name, or the closest names');

export const contextResponse = z.object({
  slug: z.string(), name: z.string(), ecosystem: z.string(), version: z.string(), latestVersion: z.string(),
  newerMajor: z.string().optional().describe('At an older major: that a newer major exists and how to ask what changed.'),
  description: z.string(), license: nullableString,
  links: z.object({ docs: nullableString, repository: nullableString, homepage: nullableString, registry: z.string() }),
  install: z.array(z.object({ manager: z.string(), command: z.string() })),
  imports: z.array(z.string()),
  quickstart: z.object({
    code: z.string(), language: z.string(), source: z.string(),
    verified: z.object({
      status: z.enum(['ran', 'pending', 'failed', 'unverifiable']).describe('Whether tooldex ran this quickstart on this version in its sandbox.'),
      version: z.string().optional(), runtime: z.string().optional(), ranAt: z.string().optional(), stdout: z.string().optional(),
      durationMs: z.number().optional(), reason: z.string().optional(), note: z.string().optional(),
      offer: z.enum(['verified', 'unverified', 'none']).optional()
        .describe('What code and testRequest are: the program that ran, a candidate not (yet) run successfully, or nothing (while pending, when no candidate could run as shown).'),
    }).optional(),
  }).nullable(),
  entryPoints: z.array(z.string()), typesIncluded: z.boolean().nullable(), requirements: z.record(z.string(), z.string()),
  testRequest: z.record(z.string(), z.unknown()).nullable(), stale: z.boolean().optional(),
  pointers: pointers.describe('With maxTokens: what was left out to fit it (entry points, the test body, the quickstart\'s code) and where to read it.'),
  budget,
}).describe('What is needed before writing code with the tool');

const resolvedDependency = z.object({
  slug: z.string(), ecosystem: z.enum(ECOSYSTEMS), name: z.string(),
  version: nullableString.describe('The exact version the project uses; null where only a manifest range is known.'),
  requested: z.string().optional().describe('The requirement the project wrote (^3.23.0, >=2,<3).'),
  dev: z.boolean().optional().describe('A development-only dependency.'),
  inCatalog: z.boolean().describe('Whether the tooldex catalog lists the package.'),
  docsIndexed: z.boolean().describe('Whether the docs of that exact version are indexed already.'),
  latest: nullableString.describe('Newest version tooldex knows of.'),
});
export const resolveResponse = z.object({
  project: z.string().describe('Pass as `project` to docs, context and test calls (same owner) until expiresAt.'),
  expiresAt: z.string(),
  files: z.array(z.object({ file: z.string(), format: z.string(), ecosystem: z.enum(ECOSYSTEMS) })),
  dependencies: z.array(resolvedDependency).describe('Direct dependencies.'),
  transitive: z.array(resolvedDependency).optional().describe('Every other package the lockfiles pin (with transitive: true).'),
  counts: z.object({ direct: z.number(), transitive: z.number() }),
  notes: z.array(z.string()),
}).describe('A project\'s dependencies at the versions it uses');

const apiItemSide = z.object({
  signature: nullableString.describe('The declaration (cut at 400 characters; the url has it whole).'), deprecated: z.boolean(),
  source: z.string().describe('File inside the artifact.'), url: z.string(), summary: nullableString,
});
const apiChange = z.object({
  kind: z.enum(['removed', 'added', 'moved', 'signature', 'deprecated']), symbol: z.string(),
  movedFrom: z.string().optional().describe('For a move: the path in the older version.'),
  from: apiItemSide.optional().describe('The item in the older version.'), to: apiItemSide.optional().describe('The item in the newer version.'),
});
const noteSection = z.object({
  title: z.string(), headings: z.array(z.string()), release: nullableString.describe('The release the section is about.'),
  content: z.string(), source: z.string(), url: z.string(), mentions: z.array(z.string()).describe('Changed symbols it names.'),
});
export const changesResponse = z.object({
  name: z.string(), ecosystem: z.enum(ECOSYSTEMS),
  from: z.object({ slug: z.string(), version: z.string() }), to: z.object({ slug: z.string(), version: z.string() }),
  counts: z.object({ removed: z.number(), added: z.number(), moved: z.number(), signature: z.number(), deprecated: z.number(), unchanged: z.number(), notes: z.number() }),
  removed: z.array(apiChange), moved: z.array(apiChange).describe('Same name and declaration at a new path.'), signature: z.array(apiChange), deprecated: z.array(apiChange), added: z.array(apiChange),
  notes: z.array(noteSection).describe('Changelog and migration-guide sections about the releases in the range, those naming changed symbols first.'),
  query: z.string().optional(),
  answers: z.array(z.union([
    z.object({ kind: z.literal('change'), change: apiChange, score: z.number() }),
    z.object({ kind: z.literal('note'), note: noteSection, score: z.number() }),
  ])).optional().describe('With q: the changes and notes that answer it, best first.'),
  omitted: z.record(z.string(), z.number()).optional().describe('How many items of each list the token budget left out.'),
  budget: z.object({ maxTokens: z.number(), usedTokens: z.number() }),
  warnings: z.array(z.string()),
}).describe('What changed between two versions');

export const testResponse = z.object({
  ok: z.boolean(), status: z.enum(TEST_STATUSES),
  phases: z.object({
    queueMs: z.number().optional().describe('Waiting for a slot (the session\'s previous call, the owner\'s cap, the server\'s slots).'),
    provisionMs: z.number(), installMs: z.number(), runMs: z.number(),
  }),
  stdout: z.string(), stderr: z.string(), exitCode: z.number().int().nullable(), sessionId: z.string(),
  sessionExpiresAt: z.null(), sessionReused: z.boolean(),
  endedBy: z.object({
    limit: z.enum(LIMIT_NAMES), phase: z.enum(['install', 'build', 'run']), max: z.number(), used: z.number().optional(),
    unit: z.enum(['ms', 'bytes', 'files', 'processes']),
  }).optional().describe('Which sandbox limit ended a step, in which phase, with the limit and what was used.'),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
}).describe('What happened when the snippet ran (a snippet that fails is still a 200 with ok: false)');

const user = z.object({ id: z.string(), email: z.string(), createdAt: z.string() });
const organisation = z.object({ id: z.string(), name: z.string(), createdAt: z.string(), role: z.string().optional() });
const member = z.object({ userId: z.string(), email: z.string(), role: z.string(), joinedAt: z.string() });
const apiKey = z.object({
  id: z.string(), orgId: z.string(), org: z.string(), name: z.string(), prefix: z.string(), createdAt: z.string(),
  createdBy: z.string(), lastUsedAt: nullableString, revokedAt: nullableString,
});
const usageDay = z.object({ day: z.string(), requests: z.number(), testRuns: z.number() });

export const dashboardResponses = {
  session: z.object({ user, csrfToken: z.string(), orgs: z.array(organisation) }).describe('The signed-in user'),
  organisation: organisation.describe('An organisation'),
  members: z.object({ members: z.array(member) }).describe('Members'),
  invite: z.object({ id: z.string(), email: z.string(), org: z.string(), link: z.string(), expiresAt: z.string() }).describe('An invite link'),
  keys: z.object({ keys: z.array(apiKey) }).describe('API keys'),
  key: apiKey.describe('An API key'),
  createdKey: apiKey.extend({ key: z.string().describe('The full key: shown this once.') }).describe('A new API key'),
  usage: z.object({ key: apiKey, days: z.array(usageDay) }).describe('Use per day'),
};

export const mcpResponse = z.object({
  jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number(), z.null()]).optional(),
  result: z.unknown().optional(), error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
}).describe('A JSON-RPC 2.0 response (MCP over Streamable HTTP)');

// Compile-time drift guard: what each capability returns must fit the documented schema (types, required fields),
// and every top-level field it has must be documented (a new field fails typecheck here until it is added above).
type Fits<T extends U, U> = T;
type IsTrue<T extends true> = T;
type AllDocumented<T, U> = [Exclude<keyof T, keyof U>] extends [never] ? true : false;

type Session = { user: User; csrfToken: string; orgs: Organisation[] };
export type DocumentedTypesFit = [
  Fits<{ results: ToolResult[] }, z.output<typeof searchResponse>>,
  Fits<DocsResult, z.output<typeof docsResponse>>,
  Fits<DocsSymbolResult, z.output<typeof docsSymbolResponse>>,
  Fits<ToolContext, z.output<typeof contextResponse>>,
  Fits<TestResult, z.output<typeof testResponse>>,
  Fits<ResolveResult, z.output<typeof resolveResponse>>,
  Fits<ChangesResult, z.output<typeof changesResponse>>,
  Fits<Session, z.output<typeof dashboardResponses.session>>,
  Fits<{ members: Member[] }, z.output<typeof dashboardResponses.members>>,
  Fits<{ keys: ApiKeyInfo[] }, z.output<typeof dashboardResponses.keys>>,
  Fits<CreatedApiKey, z.output<typeof dashboardResponses.createdKey>>,
  Fits<{ key: ApiKeyInfo; days: UsageDay[] }, z.output<typeof dashboardResponses.usage>>,
];
export type EveryFieldDocumented = [
  IsTrue<AllDocumented<ToolResult, z.output<typeof toolResult>>>,
  IsTrue<AllDocumented<DocsResult, z.output<typeof docsResponse>>>,
  IsTrue<AllDocumented<DocsSymbolResult, z.output<typeof docsSymbolResponse>>>,
  IsTrue<AllDocumented<ToolContext, z.output<typeof contextResponse>>>,
  IsTrue<AllDocumented<TestResult, z.output<typeof testResponse>>>,
  IsTrue<AllDocumented<ResolveResult, z.output<typeof resolveResponse>>>,
  IsTrue<AllDocumented<ChangesResult, z.output<typeof changesResponse>>>,
  IsTrue<AllDocumented<CreatedApiKey, z.output<typeof dashboardResponses.createdKey>>>,
];
