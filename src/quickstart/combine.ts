// Fragment combination: READMEs define things in one block (`const Player = z.object(…)`, `struct Config {…}`) and use
// them in the next (`Player.parse(…)`). A block that reads names it never binds is completed with the earlier blocks
// of the same file that bind them (transitively), the way a reader follows the page. The names come from real parses.
import type { Ecosystem } from '../catalog/index.ts';
import { descendants, namedChildren, parseCode, type Grammar, type SyntaxNode } from './parse.ts';
import { freeIdentifiers } from './programs/node.ts';
import { readTranscript, transcriptToScript, unboundNames } from './programs/python.ts';
import { unhideDoctest } from './programs/rustdoc.ts';
import { definitionsOnly } from './score.ts';
import type { Candidate } from './types.ts';

/** How far back a block looks for the definitions it needs, and how big a combined program may get. */
const LOOK_BACK = 8;
const MAX_PARTS = 3;
const MAX_LINES = 70;

/** `binds`: what the block defines (imports aside: the program makers add those); `reads`: names it uses unbound. */
export interface BlockNames { binds: Set<string>; reads: Set<string> }

export const isTranscript = (c: Candidate) => c.language === 'pycon' || /^\s*>>>/m.test(c.code);

export function grammarOf(ecosystem: Ecosystem, candidate: Candidate): Grammar | undefined {
  switch (ecosystem) {
    case 'npm': return /^(ts|typescript|tsx)$/i.test(candidate.language) || /:\s*(string|number|boolean)\b|\binterface\s+\w+/.test(candidate.code) ? 'typescript' : 'javascript';
    case 'pypi': return 'python';
    case 'crates': return 'rust';
    case 'go': return 'go';
    default: return undefined;
  }
}

/** The source a parser should read: transcripts without prompts and output, doctests with hidden lines, Go in a body. */
export function analysable(ecosystem: Ecosystem, candidate: Candidate): string {
  if (ecosystem === 'pypi' && isTranscript(candidate)) return readTranscript(candidate.code).map((s) => s.source).join('\n');
  if (ecosystem === 'crates') return unhideDoctest(candidate.code);
  if (ecosystem === 'go' && !/^package\s/m.test(candidate.code)) return `package main\nfunc main() {\n${candidate.code}\n}`;
  return candidate.code;
}

/** Identifiers of a binding pattern (`{ a, b: c }`, `(x, y)`, `mut z`). */
function patternNames(node: SyntaxNode | null | undefined): string[] {
  if (!node) return [];
  if (/^(identifier|shorthand_property_identifier_pattern|type_identifier)$/.test(node.type)) return [node.text];
  return descendants(node, ['identifier', 'shorthand_property_identifier_pattern']).filter((id) => {
    const parent = id.parent;
    // `{ key: value }` patterns bind the value, not the key.
    return !(parent?.type === 'pair_pattern' && parent.childForFieldName('key')?.equals(id));
  }).map((id) => id.text);
}

/** Names a block binds at its top level (Go: in the body it runs in too) and names it reads. */
export async function blockNames(ecosystem: Ecosystem, candidate: Candidate): Promise<BlockNames | undefined> {
  const grammar = grammarOf(ecosystem, candidate);
  if (!grammar) return undefined;
  const root = await parseCode(grammar, analysable(ecosystem, candidate));
  const binds = new Set<string>();
  const add = (names: string[]) => names.forEach((n) => binds.add(n));
  const statements = (node: SyntaxNode): SyntaxNode[] => namedChildren(node).flatMap((s) => (s.type === 'export_statement' || s.type === 'decorated_definition' ? namedChildren(s) : [s]));
  switch (grammar) {
    case 'javascript': case 'typescript':
      for (const s of statements(root)) {
        // `const x = require('x')` is an import by another name: the program makers add those themselves.
        if (/^(lexical_declaration|variable_declaration)$/.test(s.type)) {
          add(namedChildren(s).filter((d) => d.type === 'variable_declarator' && !/^(await\s+import|require)\s*\(/.test(d.childForFieldName('value')?.text ?? ''))
            .flatMap((d) => patternNames(d.childForFieldName('name'))));
        }
        else if (s.childForFieldName('name') && /declaration$/.test(s.type)) add([s.childForFieldName('name')!.text]);
      }
      break;
    case 'python':
      for (const s of statements(root)) {
        if (s.type === 'expression_statement') {
          const assignment = namedChildren(s)[0];
          if (assignment?.type === 'assignment') add(patternNames(assignment.childForFieldName('left')));
        } else if (s.type === 'function_definition' || s.type === 'class_definition') add([s.childForFieldName('name')?.text ?? '']);
      }
      break;
    case 'rust':
      for (const s of namedChildren(root)) {
        if (s.type === 'let_declaration') add(patternNames(s.childForFieldName('pattern')));
        else if (/^(function_item|struct_item|enum_item|const_item|static_item|type_item|trait_item|mod_item|union_item|macro_definition)$/.test(s.type)) add([s.childForFieldName('name')?.text ?? '']);
      }
      binds.delete('main');
      break;
    case 'go':
      for (const node of descendants(root, ['short_var_declaration', 'var_spec', 'const_spec', 'type_spec', 'function_declaration', 'method_declaration'])) {
        if (node.type === 'short_var_declaration') add(patternNames(node.childForFieldName('left')));
        else if (node.type !== 'method_declaration') add(node.childrenForFieldName('name').filter((n): n is SyntaxNode => Boolean(n)).map((n) => n.text));
      }
      binds.delete('main');
      break;
    default: break;
  }
  binds.delete('');
  let reads: Set<string>;
  if (grammar === 'javascript' || grammar === 'typescript') reads = new Set(freeIdentifiers(root));
  else if (grammar === 'python') reads = await unboundNames(root.text);
  else {
    // Rust and Go: every name the block reads that it does not bind; only names an earlier block defines matter.
    const local = new Set(descendants(root, ['parameter', 'closure_parameters', 'parameter_declaration', 'range_clause', 'for_expression'])
      .flatMap((n) => patternNames(n.childForFieldName('pattern') ?? n.childForFieldName('name') ?? n.childForFieldName('left') ?? n)));
    reads = new Set(descendants(root, ['identifier', 'type_identifier']).map((id) => id.text).filter((n) => !binds.has(n) && !local.has(n)));
  }
  return { binds, reads };
}

/** A block that is a whole program (its own `main`, a `package main`) stands alone: it is never glued to another. */
function standsAlone(ecosystem: Ecosystem, candidate: Candidate): boolean {
  // A rustdoc doctest compiles on its own (its hidden lines give it what it needs): the doctests of one source file
  // are independent programs, and gluing one to another's `let tx` makes a program nobody wrote.
  if (ecosystem === 'crates') return /\bfn\s+main\s*\(/.test(candidate.code) || candidate.origin === 'doctest' || candidate.origin === 'example-file';
  if (ecosystem === 'go') return /^package\s/m.test(candidate.code) || candidate.origin === 'go-example';
  return false;
}

/** `import x from 'y'` twice (each block repeats the README's import) would not compile: later copies go. */
function dropRepeatedImports(parts: string[], ecosystem: Ecosystem): string[] {
  if (ecosystem !== 'npm' && ecosystem !== 'pypi' && ecosystem !== 'crates') return parts;
  const seen = new Set<string>();
  const importLine = /^\s*(>>>\s*)?(import\s|from\s+\S+\s+import\s|use\s|(const|let|var)\s+[\w{}\s,$]+=\s*require\()/;
  return parts.map((part) => part.split('\n').filter((line) => {
    if (!importLine.test(line)) return true;
    const key = line.trim();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).join('\n'));
}

/**
 * For each block that reads names an earlier block of the same file binds, a combined candidate: those earlier
 * blocks (in page order) followed by this one, placed just before it. Blocks that stand alone are left as they are.
 */
export async function combineFragments(ecosystem: Ecosystem, candidates: Candidate[]): Promise<Candidate[]> {
  const names = await Promise.all(candidates.map((c) => (standsAlone(ecosystem, c) || c.origin === 'api' ? undefined : blockNames(ecosystem, c))));
  const out: Candidate[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    const own = names[i];
    if (own) {
      const chosen = new Set<number>();
      const needed = new Set([...own.reads].filter((n) => !own.binds.has(n)));
      // Nearest earlier block first: the definition a reader just saw is the one the example means.
      for (let j = i - 1; j >= 0 && j >= i - LOOK_BACK && chosen.size < MAX_PARTS; j--) {
        const earlier = names[j];
        if (!earlier || candidates[j]!.path !== candidate.path) continue;
        const gives = [...needed].filter((n) => earlier.binds.has(n));
        if (!gives.length) continue;
        chosen.add(j);
        for (const n of gives) needed.delete(n);
        for (const n of earlier.reads) if (!earlier.binds.has(n) && ![...chosen].some((k) => names[k]!.binds.has(n))) needed.add(n);
      }
      // A block that binds again what a chosen block binds is an example of its own (immutable's README repeats
      // `map1 = Map(…)` in TypeScript): JavaScript refuses a second `const`/`let`, Go a second `:=` of the same names.
      const rebinds = (ecosystem === 'npm' || ecosystem === 'go') && [...chosen].some((k) => [...own.binds].some((n) => names[k]!.binds.has(n)));
      if (chosen.size && !rebinds) {
        const parts = [...[...chosen].sort((a, b) => a - b).map((k) => candidates[k]!), candidate];
        const combined = await joinParts(ecosystem, parts);
        // Joined definitions that still only define things would show nothing when run: not worth a run.
        if (combined && combined.code.split('\n').length <= MAX_LINES && !definitionsOnly(combined.code, ecosystem)) out.push(combined);
      }
    }
    out.push(candidate);
  }
  return out;
}

async function joinParts(ecosystem: Ecosystem, parts: Candidate[]): Promise<Candidate | undefined> {
  const last = parts[parts.length - 1]!;
  let codes = parts.map((p) => p.code);
  let language = last.language;
  if (ecosystem === 'pypi' && parts.some(isTranscript) && !parts.every(isTranscript)) {
    // A transcript glued to a script: both as scripts (the transcript's shown results printed).
    codes = await Promise.all(parts.map((p) => (isTranscript(p) ? transcriptToScript(p.code) : p.code)));
    language = 'python';
  }
  if (ecosystem === 'crates' && parts.some((p) => p.language === 'rust-no-run')) language = 'rust-no-run';
  codes = dropRepeatedImports(codes, ecosystem).map((c) => c.replace(/\s+$/, ''));
  return { ...last, code: codes.filter((c) => c.trim()).join('\n\n'), language, combinedFrom: parts.slice(0, -1).map((p) => p.source) };
}
