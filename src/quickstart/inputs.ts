// What an example needs from outside that the sandbox never gives, read from a real parse (so a `stdin` in a comment,
// a string or a longer name does not count): standard input (a sandbox request has no stdin, so the program waits or
// reads nothing), a data file the program opens but neither writes nor gets from the docs (`testdata/…`), and Python 2
// syntax (`print html`), which Python 3 cannot even compile. Each would cost a sandbox run that is certain to fail.
import type { Ecosystem } from '../catalog/index.ts';
import { analysable, grammarOf } from './combine.ts';
import { descendants, withSyntaxTree, type Grammar, type SyntaxNode } from './parse.ts';
import { blockerCost, reorder } from './score.ts';
import type { ScoredCandidate } from './types.ts';

export interface InputNeeds {
  /** How the program reads standard input (`sys.stdin`, `os.Stdin`, `io::stdin()`), if it does. */
  stdin?: string;
  /** A relative path the program reads and does not write itself. */
  dataFile?: string;
  /** A Python 2 statement (`print x`, `exec code`). */
  python2?: string;
}

const CALLS: Record<string, string[]> = {
  python: ['call'], javascript: ['call_expression'], typescript: ['call_expression'], tsx: ['call_expression'],
  go: ['call_expression'], rust: ['call_expression'],
};

/** Reading standard input, by the callee or member expression that names it. */
const STDIN_MEMBER = /^(sys\.stdin|process\.stdin|os\.Stdin|(std::)?io::stdin|stdin)$/;
/** Calls that read a file named by their first argument. */
const READS_FILE = /^(open|io\.open|codecs\.open|read_csv|read_json|read_excel|read_parquet|read_table|load_workbook|Image\.open|(\w+\.)?(readFileSync|readFile|createReadStream)|os\.(Open|ReadFile|OpenFile)|ioutil\.ReadFile|(std::)?fs::(read_to_string|read|File::open)|File::open|(std::)?fs::File::open)$/;
/** Calls that create a file named by their first argument (the program brings that file itself). */
const WRITES_FILE = /^((\w+\.)?(writeFileSync|writeFile|createWriteStream|appendFileSync)|os\.(Create|WriteFile)|ioutil\.WriteFile|(std::)?fs::(write|File::create)|File::create|(std::)?fs::File::create|to_csv|to_json|to_excel|to_parquet|save|dump)$/;
/** A relative path with an extension, not a URL or a module (`testdata/a.json`, `data.csv`). */
const RELATIVE_PATH = /^(\.\/)?[\w.-]+(\/[\w.-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}$/;

function stringValue(node: SyntaxNode | undefined): string | undefined {
  if (!node || !/string/.test(node.type)) return undefined;
  const text = node.text.replace(/^[rbuf]*("""|'''|["'`])/i, '').replace(/("""|'''|["'`])$/, '');
  return text;
}

function calleeText(call: SyntaxNode): string {
  return (call.childForFieldName('function') ?? call.namedChildren[0])?.text.replace(/\s+/g, '') ?? '';
}

function argumentNodes(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  return args ? args.namedChildren.filter((n): n is SyntaxNode => n !== null && n.type !== 'comment') : [];
}

/** The last segment a method call ends in (`df.to_csv` → `to_csv`), for writers called on a value. */
const lastSegment = (callee: string) => callee.split(/\.|::/).pop() ?? callee;

/** A Python `open(path, 'w')` (or `a`, `x`, `+`) writes its file. */
function opensForWriting(call: SyntaxNode, grammar: Grammar): boolean {
  if (grammar !== 'python' || !/(^|\.)open$/.test(calleeText(call))) return false;
  const args = argumentNodes(call);
  const mode = args.find((a) => a.type === 'keyword_argument' && a.childForFieldName('name')?.text === 'mode')?.childForFieldName('value') ?? args[1];
  return /[wax+]/.test(stringValue(mode ?? undefined) ?? '');
}

export function inputNeedsIn(root: SyntaxNode, grammar: Grammar): InputNeeds {
  const needs: InputNeeds = {};
  if (grammar === 'python') {
    const statement = descendants(root, ['print_statement', 'exec_statement'])[0];
    if (statement) needs.python2 = statement.text.split('\n')[0]!.slice(0, 80);
  }
  const members = descendants(root, ['attribute', 'member_expression', 'selector_expression', 'scoped_identifier']);
  const stdinMember = members.find((m) => STDIN_MEMBER.test(m.text.replace(/\s+/g, '')));
  const calls = descendants(root, CALLS[grammar] ?? []);
  // Python's `input()` (a builtin, not a method: `layer.input(…)` is something else) and Rust's `stdin()` imported bare.
  const stdinCall = calls.find((c) => { const callee = calleeText(c); return (grammar === 'python' && callee === 'input') || (grammar === 'rust' && callee === 'stdin'); });
  if (stdinMember) needs.stdin = stdinMember.text;
  else if (stdinCall) needs.stdin = `${calleeText(stdinCall)}()`;
  const written = new Set<string>();
  const read: string[] = [];
  for (const call of calls) {
    const callee = calleeText(call);
    const path = stringValue(argumentNodes(call)[0]);
    if (!path || !RELATIVE_PATH.test(path)) continue;
    if (WRITES_FILE.test(callee) || WRITES_FILE.test(lastSegment(callee)) || opensForWriting(call, grammar)) written.add(path);
    else if (READS_FILE.test(callee) || READS_FILE.test(lastSegment(callee))) read.push(path);
  }
  const missing = read.find((path) => !written.has(path));
  if (missing) needs.dataFile = missing;
  return needs;
}

export function inputNeeds(code: string, grammar: Grammar): Promise<InputNeeds> {
  return withSyntaxTree(grammar, code, (root) => inputNeedsIn(root, grammar));
}

/**
 * Ranked candidates with what a parse finds they need: reading stdin or a data file is the blocker `needs input` (its
 * usual cost, so one that needs nothing outranks it), and Python 2 code is left out (Python 3 cannot compile it).
 * Returned in rank order again, with the left-out ones and why.
 */
export async function withInputNeeds(ecosystem: Ecosystem, ranked: ScoredCandidate[]): Promise<{ ranked: ScoredCandidate[]; python2: Map<ScoredCandidate, string> }> {
  const python2 = new Map<ScoredCandidate, string>();
  const kept: ScoredCandidate[] = [];
  for (const candidate of ranked) {
    const grammar = grammarOf(ecosystem, candidate);
    if (!grammar) { kept.push(candidate); continue; }
    const needs = await inputNeeds(analysable(ecosystem, candidate), grammar);
    if (needs.python2) { python2.set(candidate, `Python 2 syntax: ${needs.python2}`); continue; }
    const why = needs.stdin ? `reads standard input (${needs.stdin})` : needs.dataFile ? `reads a file the docs do not give (${needs.dataFile})` : undefined;
    if (!why) { kept.push(candidate); continue; }
    const blocked = candidate.blockers.includes('needs input');
    kept.push({
      ...candidate,
      score: blocked ? candidate.score : candidate.score - blockerCost('needs input'),
      blockers: blocked ? candidate.blockers : [...candidate.blockers, 'needs input'],
      signals: [...candidate.signals, why],
    });
  }
  return { ranked: reorder(kept), python2 };
}
