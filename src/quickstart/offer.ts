// What a context may offer before its quickstart is verified: at most one candidate, labelled unverified, and only one
// that could run as shown — a whole program in its language (no parse errors, no `>>>` transcript, no placeholder
// body such as `{ /* stuff */ }`), needing nothing a sandbox lacks, and able to exit (no server, no endless loop).
// An agent that asks once acts on what it gets, so anything else is withheld until the verdict.
import type { Ecosystem } from '../catalog/index.ts';
import { neverExitsIn } from './exits.ts';
import { descendants, namedChildren, parseCode, type Grammar, type SyntaxNode } from './parse.ts';
import { blockersOf } from './score.ts';
import { inputNeedsIn } from './inputs.ts';

const GRAMMAR: Partial<Record<Ecosystem, Grammar>> = { pypi: 'python', crates: 'rust', go: 'go' };

function grammarFor(ecosystem: Ecosystem, language: string, path: string): Grammar | undefined {
  if (ecosystem === 'npm') return /\.tsx$/.test(path) || /^tsx$/i.test(language) ? 'tsx' : /\.[mc]?ts$/.test(path) || /^(ts|typescript)$/i.test(language) ? 'typescript' : 'javascript';
  return GRAMMAR[ecosystem];
}

/** An object literal or block whose only content is a comment: the reader's part, left out (`{ /* stuff *\/ }`). */
function placeholderBody(root: SyntaxNode): boolean {
  return descendants(root, ['object', 'statement_block', 'block', 'dictionary']).some((node) => {
    const inner = namedChildren(node);
    return inner.length > 0 && inner.every((n) => n.type === 'comment') && node.parent?.type !== 'catch_clause';
  });
}

/**
 * Why `code` (the entry file of a program about to be offered unverified) must not be offered, or undefined when it
 * may be. `path` is the entry file's name (`index.mjs`, `main.py`), which fixes the grammar for npm.
 */
export async function withheldBecause(ecosystem: Ecosystem, code: string, language: string, path = ''): Promise<string | undefined> {
  if (!code.trim()) return 'no code';
  if (/^\s*(>>>|\$ )/m.test(code)) return 'a console transcript, not a program';
  const grammar = grammarFor(ecosystem, language, path);
  if (!grammar) return undefined;
  const root = await parseCode(grammar, code);
  if (root.hasError) return 'does not parse as a program (documentation notation or a fragment)';
  if (ecosystem === 'go' && !/^package\s+main\b/m.test(code)) return 'a Go fragment, not a program';
  if (ecosystem === 'crates' && !/\bfn\s+main\s*\(/.test(code)) return 'a Rust fragment, not a program';
  const blockers = blockersOf(code);
  // Standard input and data files the program does not bring, from the same parse (inputs.ts).
  const needs = inputNeedsIn(root, grammar);
  if (needs.stdin || needs.dataFile) blockers.push('needs input');
  if (blockers.length) return [...new Set(blockers)].join(', ');
  if (placeholderBody(root)) return 'leaves a body to the reader';
  return neverExitsIn(root, grammar);
}

/** The entry file of a test request body: what an agent would run. */
export function entryOf(testRequest: Record<string, unknown> | null | undefined): { path: string; code: string } | undefined {
  const files = testRequest?.files;
  if (!Array.isArray(files) || !files.length) return undefined;
  const entry = typeof testRequest?.entry === 'string' ? files.find((f: { path?: string }) => f.path === testRequest.entry) : files[0];
  return entry && typeof entry.path === 'string' && typeof entry.code === 'string' ? { path: entry.path, code: entry.code } : undefined;
}
