// What a run candidate teaches, as numbers a fitted model reads (teach-model.ts): judged by what the program does and
// what it printed, not only by its source. Each feature is a class of "runs but trivial" a rater named on the rated
// quickstarts (bench/quickstarts-fresh-r*-ratings.tsv): output that only echoes the input it was given, an object or
// pointer dumped instead of a result, a central call on a stand-in input, a bare line of output, a program that calls
// one thing; and where it came from (the README or a guide, a reference doctest, a program tooldex wrote).
// Pure: program text and stdout in, numbers out; the program is parsed with tree-sitter, nothing is run.
import type { Ecosystem } from '../catalog/index.ts';
import { echoesInput } from './outcome.ts';
import { calledNames } from './score.ts';
import { descendants, withSyntaxTree, type Grammar, type SyntaxNode } from './parse.ts';
import type { CandidateOrigin } from './types.ts';
import { printingHelpers, PRINTS as PRINT_CALLS } from './use-flow.ts';
import { calleeOf } from './use-syntax.ts';

/** The features in the model's order; the fitted weights (teach-model.ts) are keyed by these names. */
export const TEACH_FEATURES = [
  'echoesInput', 'dumpsObject', 'reportsError', 'standInInput', 'outputLines', 'outputChars', 'distinctCalls', 'programLines',
  'fromGuide', 'fromDoctest', 'written', 'centralApi', 'handScore',
  'readmeLead', 'entryApi', 'innerDoctest', 'leadShare', 'docsShare', 'dumpsConstruction', 'dumpedLines', 'emptyOutput',
] as const;
export type TeachFeature = typeof TEACH_FEATURES[number];
export type TeachVector = Record<TeachFeature, number>;

export interface RanCandidate {
  ecosystem: Ecosystem;
  /** The program that ran (its entry file). */
  program: string;
  stdout: string;
  origin: CandidateOrigin;
  /** The hand-set score and its named signals (score.ts), kept as features: what they know still counts. */
  score: number;
  signals: string[];
  /**
   * What the README's first two examples call (score.ts' calledNames over them): the author's lead, the package's main
   * use as its own page shows it first. Absent (or empty: no README example calls anything), `leadShare` is unknown.
   */
  leadNames?: string[];
  /**
   * How many of the package's own examples call each name (score.ts docsCallCounts over all its candidates): what the
   * docs keep calling is the main use. Absent (or no example calls anything), `docsShare` is unknown.
   */
  docsCalls?: { examples: number; calls: Record<string, number> };
}

/**
 * Output that reports a failure the program caught itself (`Failed with error: No such file: undefined`): the run
 * counts, but what it shows is the example not working. (A validator's own error messages look the same: the fit
 * decides how much this weighs.)
 */
export function reportsError(stdout: string): boolean {
  return /\b(error|errors|failed|failure|exception|traceback|panicked|no such file)\b/i.test(stdout);
}

const GRAMMAR: Partial<Record<Ecosystem, Grammar>> = { npm: 'typescript', pypi: 'python', crates: 'rust', go: 'go' };

/**
 * An object printed instead of a result: JavaScript's `[object Object]`, a Python default repr (`<Foo object at
 * 0x7f…>`), a Go pointer to a struct (`&{0xc000…}`), any raw address. A reader learns the type exists, not what it does.
 */
export function dumpsObject(stdout: string): boolean {
  return /\[object \w+\]|<[\w.]+ object at 0x[0-9a-f]+>|&\{|\b0x[0-9a-f]{8,}\b|<function [\w.]+ at 0x/i.test(stdout);
}

/**
 * Words programs use when they have no real input to give (and the stand-ins tooldex itself writes): a call on one of
 * these shows the call's shape, not what the package does with real data.
 */
const STAND_IN = /^(example|sample|foo|bar|baz|qux|hello|test|value|string|text|data|input|placeholder|lorem|abc|xyz|x|a)$/i;

const STRING_TYPES = ['string', 'template_string', 'string_literal', 'raw_string_literal', 'interpreted_string_literal', 'string_content'];
const CALL_TYPES = ['call_expression', 'call', 'new_expression', 'method_invocation'];
/** Printing and control calls are every program's; only the rest says what of the API it exercises. */
const NOT_API = /^(print|println|printf|Println|Printf|Print|Sprintf|Fprintf|log|console|format|repr|str|len|require|assert|assert_eq|unwrap|expect|to_string|toString|JSON|stringify|dir|vars|list|dict|range|Some|Ok|Err|main|Error|String|Number|Object|Array|Vec|new|from|into|clone|iter|collect|join|map|push|append)$/;

/** The name a call calls: `a.b.c(…)` → `c`, `Foo::new(…)` → `new`, `new Foo(…)` → `Foo`. */
function calleeName(call: SyntaxNode): string | undefined {
  const callee = call.childForFieldName('function') ?? call.childForFieldName('constructor') ?? call.namedChildren[0];
  if (!callee) return undefined;
  const ids = descendants(callee, ['identifier', 'property_identifier', 'field_identifier', 'type_identifier']);
  return (ids[ids.length - 1] ?? callee).text;
}

/** Distinct API calls and stand-in string arguments of a program, read from its syntax tree. */
async function programFacts(ecosystem: Ecosystem, program: string): Promise<{ calls: number; standIns: number }> {
  const grammar = GRAMMAR[ecosystem];
  if (!grammar) return { calls: 0, standIns: 0 };
  return withSyntaxTree(grammar, program, (root) => {
    const names = new Set(descendants(root, CALL_TYPES).map(calleeName).filter((n): n is string => Boolean(n) && !NOT_API.test(n!)));
    // A stand-in given to a call (not a dictionary key, not a printed label): an argument list's string.
    const standIns = descendants(root, STRING_TYPES).filter((s) => {
      if (s.type === 'string_content') return false;
      const text = s.text.replace(/^[rbfu]*["'`]+|["'`]+$/gi, '').trim();
      const parent = s.parent;
      return STAND_IN.test(text) && Boolean(parent && /argument/.test(parent.type));
    }).length;
    return { calls: names.size, standIns };
  });
}

/** Values that hold nothing, in the notations the four ecosystems print them in. */
const EMPTY_VALUE = /^(\{\}|\[\]|\(\)|''|""|``|b''|b""|None|null|undefined|nil|0|0\.0|set\(\)|map\[\]|\w+\(\)|\w+ \{\}|\w+\[\]|\w+ \[\])$/;
/** A label or key before a value: `expand():`, `exports:`, `'name':`, `"id":`, `Keys() =`. */
const LABEL = /(^|[\s{,(\[])(['"]?[\w.$-]+(\(\))?['"]?\s*(:|=>?)\s)/g;
/** A line that is a label alone (`partial():`, `name =`): it printed nothing after it. */
const LABELLED = /^\s*['"]?[\w.$-]+(\(\))?['"]?\s*(:|=>?)\s*$/;

/**
 * Whether every line of the output prints only empty values (round 18: the raters' "placeholder or empty input"
 * class: `{ exports: [], reexports: [] }` from a lexer given "example", nopt's `{ remain: [], cooked: [] }` from an
 * empty argv, `copy(): {}` of an empty SplitDict, `b''` read from a placeholder file). Labels and keys are set aside,
 * then brackets and separators; a line with a label and nothing after it is empty too (`partial():`). Lines of
 * structure only (`}`) count for neither side. 0 for no output (the other features say that). All lines, not a share:
 * over the spent picks r13–r17 a share below 1 is mostly a dump's `null` fields among real results (7 of 13 teach),
 * every line empty mostly is not (1 of 9 teaches).
 */
export function emptyOutput(stdout: string): number {
  let lines = 0;
  let empty = 0;
  for (const raw of stdout.split('\n')) {
    const labelled = LABELLED.test(raw);
    const values = raw.replace(LABEL, '$1 ').replace(LABELLED, '').split(/[\s,;]+|(?<=[{[(])(?=[^\])}])|(?<=[^{[(])(?=[}\])])/)
      .map((t) => t.trim()).filter((t) => t && !/^([{[(]+|[}\])]+)$/.test(t));
    if (!values.length && !labelled) continue;
    lines++;
    if (values.every((v) => EMPTY_VALUE.test(v))) empty++;
  }
  return Number(lines > 0 && empty === lines);
}

// ---- What happens to the value a program constructs (round 11: the raters' "only constructs a value and dumps it").

/** Calls that print or render a value: where a value ends when the program only shows it. */
const PRINTS = /^(print|println|eprintln|printf|Println|Printf|Print|Fprintf|Fprintln|Sprintf|Sprint|Sprintln|log|info|debug|dir|pprint|pp|inspect|dbg|Dump|Sdump)$/;
/** Calls a value passes through unchanged in kind (unwrapping, rendering it to text): the walk goes on from them. */
const PASSES = /^(unwrap|expect|clone|into|to_owned|as_ref|borrow|lock|items|keys|values|toString|to_string|String|str|repr|vars|JSON|stringify|dumps|format|Sprint|Sprintf|Sprintln|asdict|__repr__|__str__|fields|then)$/;
/** Names that make a value rather than compute with one: constructors, factories, builders, defaults, loaders of a new instance. */
const CONSTRUCTS = /^(new|New\w*|new_\w*|create\w*|Create\w*|make\w*|Make\w*|build|builder|from|from_\w*|with_\w*|default|Default\w*|init|zeros|ones|empty|Must\w*)$/;
const MEMBER_TYPES = ['member_expression', 'attribute', 'field_expression', 'selector_expression', 'scoped_identifier'];
/** A declaration's or assignment's left side, per grammar: the names a value is bound to. */
const BINDS: Record<string, string> = {
  variable_declarator: 'name', assignment: 'left', assignment_expression: 'left', let_declaration: 'pattern',
  short_var_declaration: 'left', assignment_statement: 'left', var_spec: 'name', const_spec: 'name',
};
/** Where a value's walk ends without being printed or used: its statement, block or function. */
const BOUNDARY = /statement$|^block$|^program$|^module$|^source_file$|_item$|^function_definition$|^function_declaration$|^arrow_function$|^lambda$/;

const same = (a: SyntaxNode | null | undefined, b: SyntaxNode | null | undefined) => Boolean(a && b && a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type);

/** Whether a call node makes a value: `new Foo()`, `Foo(…)` in Python/JavaScript, `Foo::new`, `pkg.NewFoo`, `&pkg.T{…}`. */
function isConstruction(node: SyntaxNode, ecosystem: Ecosystem): boolean {
  if (node.type === 'new_expression' || node.type === 'composite_literal' || node.type === 'struct_expression') return true;
  const name = calleeName(node);
  if (!name) return false;
  if (CONSTRUCTS.test(name)) return true;
  // A capitalised callee is a class in Python and JavaScript (in Go every exported name is capitalised).
  return (ecosystem === 'pypi' || ecosystem === 'npm') && /^[A-Z]/.test(name) && !/^[A-Z0-9_]+$/.test(name);
}

type Fate = { printed: boolean; used: boolean; names: string[] };

/**
 * Where the value of `start` goes, read upward through the tree: printed (an argument of a print call or macro), used
 * (a method is called on it, or it is an argument of any other call: the program does something with it), or bound
 * to names (whose own uses are then read). Passing calls (`unwrap`, `vars`, `toString`) and wrapping expressions
 * (`await`, `&`, parentheses, a string interpolation) carry it on.
 */
function fateOf(start: SyntaxNode, helpers: Set<string>): Fate {
  let cur = start;
  for (let steps = 0; steps < 40; steps++) {
    const p = cur.parent;
    if (!p) break;
    if (MEMBER_TYPES.includes(p.type) && same(p.namedChildren[0], cur)) {
      const call = p.parent;
      if (call && CALL_TYPES.includes(call.type) && same(call.childForFieldName('function'), p)) {
        const name = calleeName(call) ?? '';
        if (PASSES.test(name) || PRINTS.test(name)) { cur = call; continue; }
        return { printed: false, used: true, names: [] };
      }
      cur = p; // a field read: still the same value's contents
      continue;
    }
    if (p.type === 'arguments' || p.type === 'argument_list') {
      const call = p.parent;
      const name = call ? calleeName(call) ?? '' : '';
      if (PRINTS.test(name) || helpers.has(name)) return { printed: true, used: false, names: [] };
      if (call && (PASSES.test(name) || NOT_API.test(name))) { cur = call; continue; }
      return { printed: false, used: true, names: [] };
    }
    if (p.type === 'token_tree' || p.type === 'macro_invocation') {
      // Rust macros keep their arguments as tokens: `println!("{:?}", a)` prints a; `a.len()` inside one uses it.
      const macro = p.type === 'macro_invocation' ? p : (descendantsUp(p, 'macro_invocation') ?? p);
      const name = macro.childForFieldName('macro')?.text ?? macro.namedChildren[0]?.text ?? '';
      if (cur.nextSibling?.text === '.') return { printed: false, used: true, names: [] };
      if (/^(println|print|eprintln|eprint|dbg|format|write|writeln)$/.test(name)) return { printed: true, used: false, names: [] };
      return { printed: false, used: /^(assert|assert_eq|assert_ne|debug_assert)/.test(name) ? false : true, names: [] };
    }
    const side = BINDS[p.type];
    if (side) {
      const left = p.childForFieldName(side);
      if (left && !same(left, cur)) return { printed: false, used: false, names: descendants(left, ['identifier']).map((n) => n.text) };
    }
    if (BOUNDARY.test(p.type)) break;
    cur = p;
  }
  return { printed: false, used: false, names: [] };
}

/** The nearest ancestor of one type (macro arguments nest token trees). */
function descendantsUp(node: SyntaxNode, type: string): SyntaxNode | undefined {
  for (let n: SyntaxNode | null = node; n; n = n.parent) if (n.type === type) return n;
  return undefined;
}

/**
 * Whether the program constructs a value of the package and only shows it: some construction (isConstruction) whose
 * value, directly or through the names it is bound to, is printed and never given to a method or another call. The
 * dump of a fresh object, a zero-filled array, a default config: what a rater calls "only constructs a value and
 * dumps it". A program that calls something on what it made (`g.Match(…)`, `cache.set(…)`) does not count.
 */
export async function dumpsConstruction(ecosystem: Ecosystem, program: string): Promise<boolean> {
  const grammar = GRAMMAR[ecosystem];
  if (!grammar) return false;
  return withSyntaxTree(grammar, program, (root) => {
    const identifiers = descendants(root, ['identifier']);
    // The program's own printing helpers (`printValue(vs ...any) { fmt.Println(vs...) }`) print too.
    const helpers = printingHelpers(root, ecosystem, (call) => PRINT_CALLS[ecosystem]?.test(calleeOf(call)?.text ?? '') ?? false);
    for (const node of descendants(root, [...CALL_TYPES, 'composite_literal', 'struct_expression'])) {
      if (!isConstruction(node, ecosystem)) continue;
      let printed = false;
      let used = false;
      const seen = new Set<string>();
      const queue: Fate[] = [fateOf(node, helpers)];
      while (queue.length) {
        const fate = queue.shift()!;
        printed ||= fate.printed;
        used ||= fate.used;
        for (const name of fate.names) {
          if (seen.has(name)) continue;
          seen.add(name);
          // Every later mention of the bound name (the binding itself is left out: it is where the walk stopped).
          for (const id of identifiers) if (id.text === name && id.startIndex > node.endIndex) queue.push(fateOf(id, helpers));
        }
      }
      if (printed && !used) return true;
    }
    return false;
  });
}

/** The share of a program's called names that the README's lead examples call; NaN when the lead calls nothing. */
export function leadShare(program: string, leadNames: string[] | undefined): number {
  if (!leadNames?.length) return Number.NaN;
  const lead = new Set(leadNames);
  const calls = [...calledNames(program)];
  return calls.length ? calls.filter((n) => lead.has(n)).length / calls.length : 0;
}

/**
 * How central the names a program calls are across the package's own examples: the mean, over the program's called
 * names, of the share of the docs' examples that call that name, relative to the most-called name (so a package with
 * many examples is not penalised for spreading them). A side feature calls names one example shows; the main use calls
 * what most examples call. NaN when unknown (no counts, or no example calls anything); 0 when the program calls nothing
 * the docs call.
 */
export function docsShare(program: string, docs: RanCandidate['docsCalls']): number {
  if (!docs?.examples) return Number.NaN;
  const top = Math.max(0, ...Object.values(docs.calls));
  if (top === 0) return Number.NaN;
  const calls = [...calledNames(program)];
  if (!calls.length) return 0;
  return calls.reduce((s, n) => s + (Object.hasOwn(docs.calls, n) ? docs.calls[n]! : 0) / top, 0) / calls.length;
}

const cap = (x: number, max: number) => Math.min(x, max) / max;

export async function teachFeatures(c: RanCandidate): Promise<TeachVector> {
  const out = c.stdout.trim();
  const lines = out ? out.split('\n').filter((l) => l.trim()).length : 0;
  const facts = await programFacts(c.ecosystem, c.program);
  return {
    echoesInput: Number(echoesInput(c.program, c.stdout)),
    dumpsObject: Number(dumpsObject(c.stdout)),
    // The share of output lines that dump an object: one dumped line among real results (a README's Set/Get example
    // completed by printing the item it bound) is not a program that only dumps (dumpsObject is 1 for both).
    dumpedLines: lines ? out.split('\n').filter((l) => l.trim() && dumpsObject(l)).length / lines : 0,
    reportsError: Number(reportsError(c.stdout)),
    standInInput: Math.min(1, facts.standIns),
    // Log scales: the step from 1 to 3 lines says more than the one from 20 to 30 (stdout is cut at 600 characters).
    outputLines: cap(Math.log2(1 + lines), Math.log2(21)),
    outputChars: cap(Math.log2(1 + out.length), Math.log2(601)),
    distinctCalls: cap(Math.log2(1 + facts.calls), Math.log2(9)),
    programLines: cap(Math.log2(1 + c.program.split('\n').filter((l) => l.trim()).length), Math.log2(61)),
    fromGuide: Number(c.origin === 'readme' || c.origin === 'docs' || c.origin === 'example-file'),
    fromDoctest: Number(c.origin === 'doctest' || c.origin === 'doc-comment' || c.origin === 'go-example'),
    written: Number(c.origin === 'api'),
    centralApi: Number(c.signals.includes('central API')),
    handScore: Math.max(-1, Math.min(1, c.score / 20)),
    // The hand score's named signals (score.ts), one feature each, so that the fit weighs them instead of the fixed
    // points they add to the hand score: the README's first example, a call of the entry point's public names, and a
    // doctest of an inner module. (A block completed with earlier definitions, and a written program calling what the
    // docs' examples call, were tried as features too and dropped: docs/quickstarts.md, "Round 8: selection".)
    readmeLead: Number(c.signals.includes("the README's first example")),
    entryApi: Number(c.signals.includes("calls the entry point's public API")),
    innerDoctest: Number(c.signals.some((s) => s.startsWith('doctest of an inner module'))),
    // The share of the program's calls that the README's lead examples also make: a niche helper or a side feature
    // calls what the lead never does; the main use calls what it does.
    // NaN when unknown (no README example calls anything): the model reads it as the training mean (teach-model.ts).
    // (A second signal of the main use, the sentence encoder's similarity between the program and the package's
    // catalog description, was tried and dropped: docs/quickstarts.md, "Round 9: selection".)
    leadShare: leadShare(c.program, c.leadNames),
    // Round 10's centrality signal: how many of the docs' examples call what the program calls. (The share of the
    // output the program did not spell out itself, `outputNovelty`, was tried beside it and dropped: docs/quickstarts.md,
    // "Round 10: selection".)
    docsShare: docsShare(c.program, c.docsCalls),
    // Round 11: the raters' commonest "trivial" class, read from the program's syntax tree (no package named): a value
    // made and only printed. (Output that only repeats the program's own words, `restatesProgram`, was tried beside it
    // and dropped: docs/quickstarts.md, "Round 11: selection".)
    dumpsConstruction: Number(await dumpsConstruction(c.ecosystem, c.program)),
    // Round 18: output that holds nothing (empty containers, zero, None) under its labels: a call on a placeholder
    // or an empty input, which shows the call's shape and nothing the package did.
    emptyOutput: emptyOutput(c.stdout),
    // (Round 14: how far below the entry point the program's imports of the package reach, `subModule`, was tried
    // and dropped: docs/quickstarts.md, "Round 14: selection".)
  };
}
