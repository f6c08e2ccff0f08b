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

/** The features in the model's order; the fitted weights (teach-model.ts) are keyed by these names. */
export const TEACH_FEATURES = [
  'echoesInput', 'dumpsObject', 'reportsError', 'standInInput', 'outputLines', 'outputChars', 'distinctCalls', 'programLines',
  'fromGuide', 'fromDoctest', 'written', 'centralApi', 'handScore',
  'readmeLead', 'entryApi', 'innerDoctest', 'leadShare', 'docsShare',
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
  };
}
