// The tool context: install commands per package manager, imports, the quickstart (first usage example in the
// tool's own docs, then the one tooldex verified in its sandbox) and its POST /tools/test body. Pure: facts in, context out.
import semver from 'semver';
import type { Ecosystem, ToolRecord } from '../catalog/index.ts';
import type { PassageDraft } from './extract/types.ts';
import type { ToolContext } from './schema.ts';
import type { PackageFacts } from './sources/types.ts';
import type { VerificationResult, Verified } from '../quickstart/types.ts';
import { unhideDoctest } from '../quickstart/programs/rustdoc.ts';

export interface Quickstart { code: string; language: string; source: string }

const LANGUAGES: Record<Ecosystem, RegExp> = {
  npm: /^(js|javascript|ts|typescript|jsx|tsx|mjs|cjs|node)$/i,
  pypi: /^(python|py|python3|pycon)$/i,
  crates: /^(rust|rs)$/i,
  go: /^(go|golang)$/i,
  rubygems: /^(ruby|rb)$/i,
};

const FENCED = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)[^\n]*\n([\s\S]*?)\n\s{0,3}\1\s*$/gm;

function mentionsPackage(code: string, ecosystem: Ecosystem, name: string, importName: string): boolean {
  const quoted = (n: string) => new RegExp(`['"\`]${n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/[^'"\`]*)?['"\`]`);
  switch (ecosystem) {
    case 'npm': return quoted(name).test(code);
    case 'pypi': return new RegExp(`\\b(import|from)\\s+${importName}\\b`).test(code);
    case 'crates': return new RegExp(`\\b${importName}::`).test(code);
    case 'go': return code.includes(`"${importName}`);
    case 'rubygems': return code.includes(`require '${name}'`) || code.includes(`require "${name}"`);
  }
}

/** The first fenced example in the README (then guides) in the ecosystem's language that uses the package. */
export function findQuickstart(passages: PassageDraft[], ecosystem: Ecosystem, name: string, importName: string): Quickstart | null {
  const ordered = [...passages].sort((a, b) => Number(!/readme/i.test(a.source)) - Number(!/readme/i.test(b.source)));
  let fallback: Quickstart | null = null;
  for (const passage of ordered) {
    for (const match of passage.content.matchAll(FENCED)) {
      const language = match[2] ?? '';
      const code = (match[3] ?? '').trim();
      if (!code || code.length > 4000) continue;
      if (!LANGUAGES[ecosystem].test(language)) continue;
      const candidate = { code: language === 'pycon' ? fromPycon(code) : code, language: language.toLowerCase(), source: passage.url };
      if (mentionsPackage(code, ecosystem, name, importName)) return candidate;
      fallback ??= candidate;
    }
  }
  return fallback;
}

function fromPycon(code: string): string {
  return code.split('\n').filter((l) => /^(>>>|\.\.\.)/.test(l)).map((l) => l.replace(/^(>>>|\.\.\.) ?/, '')).join('\n');
}

export function installCommands(ecosystem: Ecosystem, name: string, version: string): ToolContext['install'] {
  switch (ecosystem) {
    case 'npm': return [
      { manager: 'npm', command: `npm install ${name}@${version}` }, { manager: 'pnpm', command: `pnpm add ${name}@${version}` },
      { manager: 'yarn', command: `yarn add ${name}@${version}` }, { manager: 'bun', command: `bun add ${name}@${version}` },
    ];
    case 'pypi': return [
      { manager: 'pip', command: `pip install "${name}==${version}"` }, { manager: 'uv', command: `uv add "${name}==${version}"` },
      { manager: 'poetry', command: `poetry add "${name}==${version}"` },
    ];
    case 'crates': return [{ manager: 'cargo', command: `cargo add ${name}@${version}` }];
    case 'go': return [{ manager: 'go', command: `go get ${name}@${version}` }];
    case 'rubygems': return [
      { manager: 'gem', command: `gem install ${name} -v ${version}` }, { manager: 'bundler', command: `bundle add ${name} --version ${version}` },
    ];
  }
}

const camel = (name: string) => name.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()).replace(/^\d/, '_$&');

export function importStatements(ecosystem: Ecosystem, name: string, facts: PackageFacts, quickstart: Quickstart | null): string[] {
  const importName = facts.importName ?? name;
  if (ecosystem === 'npm') {
    const fromDocs = (quickstart?.code ?? '').split('\n').filter((line) => mentionsPackage(line, 'npm', name, name) && /\b(import|require)\b/.test(line)).map((l) => l.trim());
    if (fromDocs.length) return [...new Set(fromDocs)].slice(0, 3);
    // An ES module's namespace import always works; a CommonJS module's export is its default import.
    if (facts.moduleType === 'module') return [`import * as ${camel(name)} from '${name}';`];
    return [`import ${camel(name)} from '${name}';`, `const ${camel(name)} = require('${name}');`];
  }
  switch (ecosystem) {
    case 'pypi': return [`import ${importName}`];
    case 'crates': return [`use ${importName};`];
    case 'go': return [`import "${importName}"`];
    case 'rubygems': return [`require '${importName}'`];
  }
}

export function testRequestFor(ecosystem: Ecosystem, name: string, version: string, slug: string, quickstart: Quickstart | null): Record<string, unknown> | null {
  if (!quickstart) return null;
  const code = quickstart.code;
  switch (ecosystem) {
    case 'npm': {
      const typescript = /^(ts|typescript|tsx)$/.test(quickstart.language);
      const esm = /^\s*(import|export)\s/m.test(code);
      // README examples often call the package without importing it first (`ms('2 days')`).
      const imported = mentionsPackage(code, 'npm', name, name);
      // An example with imports (or one given an import here) is an ES module: .mts/.mjs, so top-level await and
      // ES-only packages work whatever the sandbox's package.json says; only a require-style example stays CommonJS.
      const module = esm || !imported;
      const path = typescript ? (module ? 'index.mts' : 'index.cts') : module ? 'index.mjs' : 'index.cjs';
      const program = imported ? code : `import ${camel(name)} from '${name}';\n\n${code}`;
      return { language: typescript ? 'typescript' : 'javascript', runtime: 'node', files: [{ path, code: program }], packages: [`${name}@${version}`], slug };
    }
    case 'pypi':
      return { language: 'python', runtime: 'python', files: [{ path: 'main.py', code }], packages: [`${name}==${version}`], slug };
    case 'crates': {
      // rustdoc's `# ` lines are hidden from readers but are part of the program (setup, `fn main`, `Ok(())`).
      const lines = unhideDoctest(code).split('\n');
      const body = lines.join('\n');
      const main = /\bfn\s+main\s*\(/.test(body) ? body
        : `${lines.filter((l) => /^\s*(use|extern crate)\s/.test(l)).join('\n')}\n\nfn main() {\n${lines.filter((l) => !/^\s*(use|extern crate)\s/.test(l)).map((l) => `    ${l}`).join('\n')}\n}\n`;
      return { language: 'rust', runtime: 'rust', files: [{ path: 'src/main.rs', code: main.trim() + '\n' }], packages: [`${name}@${version}`], slug };
    }
    case 'go': {
      // A fragment would need guessed imports to compile; only whole programs become a test body.
      const main = /^package\s+main\b/m.test(code) ? code : /\bfunc\s+main\s*\(/.test(code) ? `package main\n\n${code}` : undefined;
      return main ? { language: 'go', runtime: 'golang', files: [{ path: 'main.go', code: main }], packages: [`${name}@${version}`], slug } : null;
    }
    case 'rubygems':
      return { language: 'ruby', runtime: 'ruby', files: [{ path: 'main.rb', code }], packages: [name], slug };
  }
}

export interface StoredFacts extends PackageFacts { quickstart: Quickstart | null }

/**
 * One line for a context at an older major (0.x counts its minor as major, as semver's caret does): that a newer major
 * exists and how to ask what changed. Go majors live at other module paths, so a Go module's newest is never one.
 */
export function newerMajorNote(slug: string, name: string, version: string, latest: string): string | undefined {
  const current = semver.coerce(version);
  const newest = semver.coerce(latest);
  if (!current || !newest) return undefined;
  const newer = newest.major > current.major || (newest.major === 0 && current.major === 0 && newest.minor > current.minor);
  if (!newer) return undefined;
  return `${name} ${latest} is a newer major release than ${version}: GET /tools/changes/${slug}?from=${version}&to=${latest} `
    + `(MCP get_changes, tooldex changes ${slug} ${version} ${latest}) says what changed.`;
}

export function buildContext(tool: ToolRecord, version: string, latest: string, facts: StoredFacts, docsUrl: string | null, registryUrl: string): ToolContext {
  const ecosystem = tool.ecosystem;
  return {
    slug: tool.slug,
    name: tool.name,
    ecosystem,
    version,
    latestVersion: latest,
    ...(newerMajorNote(tool.slug, tool.name, version, latest) ? { newerMajor: newerMajorNote(tool.slug, tool.name, version, latest) } : {}),
    description: facts.description || tool.description,
    license: facts.license ?? tool.license,
    links: {
      docs: docsUrl,
      repository: facts.repository ?? tool.repository,
      homepage: facts.homepage ?? tool.homepage,
      registry: registryUrl,
    },
    install: installCommands(ecosystem, tool.name, version),
    imports: importStatements(ecosystem, tool.name, facts, facts.quickstart),
    quickstart: facts.quickstart,
    entryPoints: facts.entryPoints,
    typesIncluded: facts.typesIncluded,
    requirements: facts.requirements,
    testRequest: testRequestFor(ecosystem, tool.name, version, tool.slug, facts.quickstart),
  };
}

/**
 * The context with its quickstart verification: the verified program and its exact test body when it ran; else the
 * best example (labelled by `verified.status`: pending, failed or unverifiable, with the reason), never a silent guess.
 */
export function withVerification(context: ToolContext, verification: { status: Verified['status']; attempts: number; error: string | null; result: VerificationResult | null },
  pending: { waitedMs?: number; docsExampleWithheld?: string } = {}): ToolContext {
  const language = context.quickstart?.language ?? QUICKSTART_LANGUAGE[context.ecosystem] ?? context.ecosystem;
  const result = verification.result;
  let verified: Verified;
  let quickstart = context.quickstart;
  let testRequest = context.testRequest;
  if (verification.status === 'pending' || !result) {
    // Pending offers at most one candidate, labelled unverified: the verifier's preview (the best-ranked candidate
    // that could run as shown), else the docs' example when it passed the same screen, else nothing.
    const preview = verification.status === 'pending' ? result : null;
    if (preview?.quickstart) {
      quickstart = preview.quickstart;
      testRequest = preview.testRequest as Record<string, unknown> | null;
    } else if (pending.docsExampleWithheld) {
      quickstart = { code: '', language, source: context.quickstart?.source ?? '' };
      testRequest = null;
    }
    const waited = pending.waitedMs ? ` (waited ${pending.waitedMs} ms)` : '';
    verified = {
      status: 'pending',
      reason: (verification.attempts > 0 && verification.error
        ? `verification is retried after a fault (attempt ${verification.attempts + 1}): ${verification.error}`
        : `verification in the sandbox is under way${waited}; ask again shortly`)
        + (quickstart?.code ? '; the program shown has not run yet' : pending.docsExampleWithheld ? `; the docs' example is not offered: ${pending.docsExampleWithheld}` : ''),
      offer: quickstart?.code ? 'unverified' : 'none',
    };
  } else {
    verified = result.verified;
    if (result.quickstart) quickstart = result.quickstart;
    if (result.testRequest || verification.status === 'ran') testRequest = result.testRequest as Record<string, unknown> | null;
    verified = { ...verified, offer: verification.status === 'ran' && result.testRequest ? 'verified' : quickstart?.code ? 'unverified' : 'none' };
  }
  // Import lines the verification proved load replace those read from the docs (luxon has no default export).
  const imports = verification.status !== 'pending' && result?.imports?.length ? result.imports : context.imports;
  return { ...context, imports, quickstart: { ...(quickstart ?? { code: '', language, source: '' }), verified }, testRequest };
}

const QUICKSTART_LANGUAGE: Record<string, string> = { npm: 'javascript', pypi: 'python', crates: 'rust', go: 'go', rubygems: 'ruby' };
