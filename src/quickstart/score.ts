// Orders usage-example candidates by how likely they are to be a good, runnable quickstart: uses the package's own
// API, is or can become a whole program, is short, prints something, and needs nothing a sandbox cannot give.
import type { Ecosystem } from '../catalog/index.ts';
import type { Blocker, Candidate, ScoredCandidate } from './types.ts';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether the example imports (or plainly calls into) the package itself. */
export function usesPackage(code: string, ecosystem: Ecosystem, name: string, importName: string): boolean {
  switch (ecosystem) {
    case 'npm': return new RegExp(`['"\`]${escape(name)}(/[^'"\`]*)?['"\`]`).test(code);
    case 'pypi': {
      const root = escape(importName.split('.')[0] ?? importName);
      return new RegExp(`^\\s*(>>>\\s*)?(import\\s+${root}\\b|from\\s+${root}(\\.[\\w.]+)?\\s+import\\b)`, 'm').test(code);
    }
    case 'crates': return new RegExp(`\\b${escape(importName)}::|\\buse\\s+${escape(importName)}\\b|extern crate ${escape(importName)}\\b`).test(code);
    case 'go': {
      // Another major version of the module (`github.com/urfave/cli` in docs kept for v1, for the module
      // `github.com/urfave/cli/v2`) is another module: its API is not this one's.
      if (otherMajorImports(code, importName).length) return false;
      const last = importName.split('/').filter((p) => !/^v\d+$/.test(p)).pop() ?? importName;
      return code.includes(`"${importName}`) || new RegExp(`\\b${escape(last.replace(/^go-/, '').replace(/[.-]/g, ''))}\\.[A-Z]`).test(code);
    }
    case 'rubygems': return new RegExp(`require\\s*\\(?\\s*['"]${escape(name)}`).test(code) || code.includes(`${name.replace(/(^|[-_])(\w)/g, (_, _d: string, c: string) => c.toUpperCase())}`);
  }
}

/** The import paths of a Go example that name the module at another major version (or none, for a `/vN` module). */
export function otherMajorImports(code: string, modulePath: string): string[] {
  const base = modulePath.replace(/\/v\d+$/, '');
  const own = modulePath === base ? undefined : modulePath.slice(base.length + 1);
  const found: string[] = [];
  for (const match of code.matchAll(/"([^"\s]+)"/g)) {
    const path = match[1]!;
    if (path !== base && !path.startsWith(`${base}/`)) continue;
    const major = /^\/(v\d+)(\/|$)/.exec(path.slice(base.length))?.[1];
    if (major !== own) found.push(path);
  }
  return found;
}

/**
 * Whether a Go `Example…` function uses the module: it imports one of its packages, or it is an in-package example
 * that calls the package's names unqualified (`NewReader(…)`). klauspost/compress keeps a copy of the standard
 * library's zlib example (`import "compress/zlib"`): it runs, and teaches the standard library instead.
 */
export function goExampleUsesModule(code: string, modulePath: string): boolean {
  if (otherMajorImports(code, modulePath).length) return false;
  const base = modulePath.replace(/\/v\d+$/, '');
  if (code.includes(`"${base}`)) return true;
  const body = code.replace(/^\s*\/\/.*$/gm, '').replace(/"(?:[^"\\\n]|\\.)*"|`[^`]*`/g, '""');
  return /(^|[^.\w])[A-Z]\w*\s*[({]/m.test(body.replace(/\bfunc\s+(Example|Test|Benchmark)\w*/g, ''));
}

const PRINTS: Record<Ecosystem, RegExp> = {
  // A line's trailing comment that shows its value (`map1.get('b') + ' vs. ' + map2.get('b'); // 2 vs. 50`) shows
  // output as much as `// =>` does: the program prints that expression.
  npm: /\bconsole\.(log|info|table|dir)\s*\(|\/\/\s*(=>|→|->|outputs?:|prints?:|returns?:|result:)|\/\/=>|^[^\n]*[\w)\]]\s*;?\s*\/\/\s*(['"`[{\d-]|(true|false|null|undefined|NaN|Infinity)\b)/im,
  pypi: /\bprint\s*\(|^\s*>>>[\s\S]*\n(?!\s*(>>>|\.\.\.))\s*\S/m,
  crates: /\b(e?println!|e?print!|dbg!)\s*\(|\bassert_eq!\s*\(/,
  go: /\bfmt\.(Print|Fprint|Sprint)|\blog\.(Print|Fatal)|\/\/\s*Output:/,
  rubygems: /^\s*(puts|p|pp|print)\b|#\s*=>/m,
};

const BLOCKERS: Array<[Blocker, RegExp]> = [
  ['needs a service', /\b(postgres(ql)?|mysql|mariadb|mongodb(\+srv)?|redis|rediss|amqp|kafka|nats|memcached?):\/\/|\b(localhost|127\.0\.0\.1|0\.0\.0\.0):\d{2,5}\b|\bboto3\.(client|resource)\(|\.create_client\(\s*['"]|\bElasticsearch\(|\bMongoClient\(|\bKafka(Producer|Consumer)\(|sqlx?::\w*Pool|\.connect\(\s*['"](?!:memory:)[^'"]*['"]|\bgrpc\.(Dial|NewClient)\(/i],
  ['runs a server', /\.listen\(\s*\d|\bListenAndServe(TLS)?\(|\buvicorn\.run\(|\bapp\.run\(|\bserve_forever\(|\baxum::serve\b|\bHttpServer::new\b|\.Run\(\s*["'][\w.-]*:\d+["']|\b[er]\.Start\(\s*["':]|\bapp\.Listen\(|\bwarp::serve\b|\bServer::bind\b|\bweb\.run_app\(|\bFlask\(__name__\)|\bServer\(\s*\{|\bcreateServer\(/],
  // Arguments and prompts only: standard input and data files are read from a parse, in one place (inputs.ts).
  ['needs input', /\binput\(|\bsys\.argv\b|\bprocess\.argv\b|\bos\.Args\b|\benv::args\(|\breadline\b|\bprompt\(/],
  ['needs secrets', /\b[A-Z][A-Z0-9]*_(API_)?(KEY|TOKEN|SECRET)\b|\bapi[_-]?key\s*[=:]|\bprocess\.env\.[A-Z_]+|\bos\.environ\[|\bos\.getenv\(|\bstd::env::var\(|\bos\.Getenv\(|\bENV\[/],
  ['needs a browser', /\bdocument\.(getElementById|querySelector|body|createElement)|\bwindow\.|\blocalStorage\b|\bnavigator\.|\bcreateRoot\(\s*document|\bReactDOM\.render\(/],
  ['has placeholders', /\[\s*(\.\.\.|…)\s*\]|<\s*your[\w\s-]*>|\byour[-_ ](api[-_ ]?key|token|password|username|project|bucket|app)\b|\bYOUR_[A-Z_]+\b|\bxxx+\b|<[A-Z][A-Z_]{2,}>|^\s*(\.\.\.|…)\s*$|\/\/\s*\.\.\.\s*$|\{\s*\.\.\.\s*\}|\(\s*\.\.\.\s*\)/m],
  ['needs network', /\b(requests|httpx|aiohttp|urllib\.request|reqwest|http|axios|got|ky|superagent|HTTParty|Faraday|Net::HTTP)\.(get|post|put|delete|Get|Post|request|urlopen|fetch)\(|\bfetch\(\s*['"`]https?:/],
];

/** A function given a remote URL literal first that is not a URL's own constructor or parser (`got('https://…')`). */
function calledWithUrl(text: string): boolean {
  for (const match of text.matchAll(/([A-Za-z_$][\w$]*)\s*\(\s*['"`]https?:\/\/(?!(localhost|127\.0\.0\.1|\[::1\]))/g)) {
    if (!/url|uri|parse|href|link/i.test(match[1]!)) return true;
  }
  return false;
}

/** A URL literal of a host other than this machine. */
const REMOTE_URL_LITERAL = /['"`]https?:\/\/(?!(localhost|127\.0\.0\.1|\[::1\]))[^'"`\s]+['"`]/;
/** A call that can send a request (an HTTP verb, a client's `request`/`send`, `fetch`, `urlopen`, `connect`, `Dial`). */
const SENDING_CALL = /(\.|\b)(get|post|put|patch|delete|head|request|fetch|urlopen|stream|send|connect|dial|open|download|upload|load|query|execute|run)\w*\s*\(/i;

/** Reading the package's version (`cryptography.__version__`, `VERSION`, `pkg.version`). */
const VERSION_READ = /__version__|\.VERSION\b|\b\w+\.version\b(?!\s*\()/;

const ORIGIN_BONUS: Record<Candidate['origin'], number> = {
  // The README is the author's own pick of what to show first; a doctest or JSDoc `@example` documents one symbol
  // of the reference (luxon's Duration.toHuman, sympy's stationary_points), so it outranks a README example only by
  // being clearly better on the other features (issue 24: README and guide examples over reference doctests).
  'go-example': 4, readme: 5, 'example-file': 1, doctest: 1, docs: 1, 'doc-comment': 0, api: -3,
};

/**
 * A combined fragment only has to outrank its bare block (which reads names it never binds and fails); it sits just
 * before that block, so a small bonus does it. A larger one (it was 2) let a glued pair of reference doctests outrank
 * the README (requests' PreparedRequest docstring) and the README's second example its first (immutable's Seq).
 */
const COMBINED_BONUS = 0.5;

/** What a blocker takes off a candidate's score (also for blockers found later, from a parse: inputs.ts). */
export function blockerCost(blocker: Blocker): number {
  return blocker === 'runs a server' ? 8 : blocker === 'has placeholders' ? 6 : 5;
}

/**
 * Candidates in the order rankCandidates gives them, after scores changed: programs tooldex writes last, then by
 * score; a stable sort, so equal scores keep their earlier order.
 */
export function reorder(candidates: ScoredCandidate[]): ScoredCandidate[] {
  return [...candidates].sort((a, b) => Number(a.origin === 'api') - Number(b.origin === 'api') || b.score - a.score);
}

export function blockersOf(code: string): Blocker[] {
  const text = code.replace(/^\s*(#|\/\/)(?!\s*(=>|Output)).*$/gm, '');
  const found = BLOCKERS.filter(([, pattern]) => pattern.test(text)).map(([blocker]) => blocker);
  // A URL literal needs the network only where something could send it: yarl's README builds and takes apart
  // `URL('https://www.python.org/~guido?arg=1#frag')` and calls nothing that sends, so it runs offline.
  if (!found.includes('needs network') && REMOTE_URL_LITERAL.test(text) && (SENDING_CALL.test(text) || calledWithUrl(text))) found.push('needs network');
  return found;
}

/**
 * A Python script whose top level only imports, defines classes and functions and binds names: run, it shows nothing
 * (six's `class MyClass(with_metaclass(Meta, Base)): pass`). Transcripts always show something.
 */
export function definitionsOnly(code: string, ecosystem: Ecosystem): boolean {
  if (ecosystem === 'go') {
    // A Go fragment of package-level declarations only (klauspost's `func Compress(src []byte) []byte {…}`): no
    // `main` or `Example…` calls them, so its program shows nothing.
    if (/^func\s+(main|Example\w*|Test\w*)\s*\(/m.test(code)) return false;
    const top = code.split('\n').filter((line) => /^\S/.test(line) && !line.startsWith('//'));
    return top.length > 0 && top.every((line) => /^(package|import|func|var|const|type)\b|^[)}\]]/.test(line));
  }
  // unittest.TestCase classes are run (with a stdout test runner): they show their verdicts.
  if (ecosystem !== 'pypi' || /^\s*>>>/m.test(code) || /\bTestCase\b/.test(code)) return false;
  const top = code.split('\n').filter((line) => /^\S/.test(line) && !line.startsWith('#'));
  return top.length > 0 && top.every((line) => /^(import\s|from\s|class\s|def\s|async\s+def\s|@|[\w.]+\s*=(?!=)|[)\]}])/.test(line));
}

/** Only imports, package clauses and comments: shows how to import, not how to use. */
export function importsOnly(code: string): boolean {
  const statements = code.replace(/\b(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*require\([^)]*\)\s*;?/g, '')
    .replace(/\bimport\s+[^;'"]*?\bfrom\s*['"][^'"]+['"]\s*;?/g, '').replace(/\bimport\s*\(?['"][^'"]+['"]\)?\s*;?/g, '')
    .replace(/\bfrom\s+[\w.]+\s+import\s*\([^)]*\)/g, '');
  return statements.split('\n').every((line) => /^\s*(import\s|from\s+\S+\s+import\s|(const|let|var)\s+[\w{}\s,]+=\s*require\(|use\s|extern crate\s|require\s|package\s|#(?!\[)|\/\/|$|>>>\s*(import|from)\s)/.test(line));
}

export function scoreCandidate(candidate: Candidate, ecosystem: Ecosystem, name: string, importName: string, bindings: string[] = []): ScoredCandidate {
  const signals: string[] = [];
  let score = ORIGIN_BONUS[candidate.origin];
  if (importsOnly(candidate.code)) { score -= 20; signals.push('imports only'); }
  const usesBinding = bindings.some((b) => new RegExp(`(^|[^\\w$.])${b.replace(/\$/g, '\\$')}\\s*[.(]`).test(candidate.code));
  const uses = usesPackage(candidate.code, ecosystem, name, importName) || usesBinding
    || (candidate.origin === 'doctest' && ecosystem === 'crates') || (candidate.origin === 'go-example' && goExampleUsesModule(candidate.code, importName)) || candidate.origin === 'api';
  if (uses) { score += 5; signals.push('uses the package'); } else { score -= 6; signals.push('does not name the package'); }
  // A server run with one request prints the request and the answer (programs/go-serve.ts).
  if (PRINTS[ecosystem].test(candidate.code) || candidate.expectedOutput || candidate.serves) { score += 2; signals.push('shows output'); }
  if (candidate.expectedOutput) score += 2;
  // A transcript's length is what a reader types, plus one for the results it shows (xmltodict's pretty-printed
  // JSON is what makes it worth showing, not bulk).
  const transcript = /^\s*>>>/m.test(candidate.code);
  const nonEmpty = candidate.code.split('\n').filter((l) => l.trim());
  const typed = nonEmpty.filter((l) => /^\s*(>>>|\.\.\.)/.test(l)).length;
  const lines = transcript ? typed + (typed < nonEmpty.length ? 1 : 0) : nonEmpty.length;
  if (candidate.origin === 'api') score += 0; // written by tooldex: its length says nothing
  // One line that chains several calls (`DateTime.now().setZone(…).minus(…).toISO()`) shows as much as a block does.
  else if (lines <= 2 && calledNames(candidate.code).size < 3) { score -= 2; signals.push('very short'); } else if (lines <= 25) score += 2;
  else if (lines > 80) { score -= 3; signals.push('long'); } else if (lines > 45) score -= 1;
  if (candidate.language === 'rust-no-run') { score -= 3; signals.push('no_run'); }
  if (definitionsOnly(candidate.code, ecosystem)) { score -= 4; signals.push('only defines things'); }
  // Runs, but teaches nothing a newcomer needs: the version string, or a constant looked up without calling anything
  // (requests' `requests.codes['temporary_redirect']`). Written programs are judged by their own rules (tried last).
  const calls = candidate.origin === 'api' ? undefined : calledNames(candidate.code);
  if (calls && !calls.size && VERSION_READ.test(candidate.code)) { score -= 6; signals.push('only reads the version'); }
  else if (calls && !calls.size && !importsOnly(candidate.code)) { score -= 3; signals.push('calls nothing'); }
  // A block completed with the definitions it uses from earlier on the page runs where the bare block would not.
  if (candidate.combinedFrom?.length) { score += COMBINED_BONUS; signals.push('completed with earlier definitions'); }
  // Pointed at the local stand-in, the network calls (and the loopback URL that replaced them) no longer block it.
  const blockers = blockersOf(candidate.code).filter((b) => (!candidate.localWeb || (b !== 'needs network' && b !== 'needs a service')) && (!candidate.serves || b !== 'runs a server'));
  if (candidate.localWeb) { score -= 1; signals.push('runs against a local stand-in web server'); }
  if (candidate.serves) signals.push('a server, run with one request to it');
  for (const blocker of blockers) {
    score -= blockerCost(blocker);
    signals.push(blocker);
  }
  return { ...candidate, score, blockers, signals };
}

/** The functions and methods a block calls (`z.object(`, `.parse(`, `new Client(`): what of the API it exercises. */
export function calledNames(code: string): Set<string> {
  const text = code.replace(/^\s*(#|\/\/).*$/gm, '');
  const names = new Set<string>();
  for (const match of text.matchAll(/([A-Za-z_][\w]*)\s*(?:!\s*)?(?:::<[^>]*>\s*)?\(/g)) {
    // Control flow and printing are every example's; only the rest says which part of the API a block shows.
    if (!/^(if|for|while|switch|match|return|fn|func|function|def|print|println|eprintln|Println|Printf|Print|log|console|catch|elif|with|assert|assert_eq|Some|Ok|Err|format|panic|repr|str|len|require)$/.test(match[1]!)) names.add(match[1]!);
  }
  return names;
}

/**
 * What the README's first two examples call (their calledNames): the author's lead, the package's main use as its own
 * page shows it first. In the README's order (a candidate's source line), not the ranked order; blocks completed with
 * earlier definitions or pointed at a local web stand-in repeat blocks already counted. The teach model's `leadShare`
 * (teach-features.ts) reads it.
 */
export function readmeLeadNames(candidates: Candidate[]): string[] {
  const line = (c: Candidate) => Number(/#L(\d+)/.exec(c.source)?.[1] ?? Number.MAX_SAFE_INTEGER);
  const readme = candidates.filter((c) => c.origin === 'readme' && !c.combinedFrom?.length && !c.localWeb).sort((a, b) => line(a) - line(b)).slice(0, 2);
  return [...new Set(readme.flatMap((c) => [...calledNames(c.code)]))].sort();
}

/**
 * How many of the package's own examples call each name (calledNames): counted over the page's own blocks, because a
 * combined candidate repeats blocks that are already counted, and programs tooldex writes from the API (which share
 * their own scaffolding, `vars(…)`) are not the docs' examples. `examples` is how many blocks were counted; `called`
 * is each candidate's calledNames where the caller has them already. Read by
 * centrality() and by the teach model's `docsShare` (teach-features.ts).
 */
export function docsCallCounts(candidates: Candidate[], called = candidates.map((c) => calledNames(c.code))): { examples: number; calls: Record<string, number> } {
  const calls = Object.create(null) as Record<string, number>; // no prototype: `constructor` is a name examples call
  let examples = 0;
  candidates.forEach((c, i) => {
    if (c.combinedFrom || c.localWeb || c.origin === 'api') return;
    examples++;
    for (const n of called[i]!) calls[n] = (calls[n] ?? 0) + 1;
  });
  return { examples, calls };
}

/**
 * How central the API a block exercises is: the functions the package's examples keep calling (those at least two
 * blocks of the page call) are its main use; a block scores by how many of them it calls, full marks at three (or at
 * all of them, when fewer recur). `z.object(…)`/`.parse(…)` recur on zod's page; `parseAsync` after `refine` does not.
 * A language builtin one block calls (`parseInt`) costs nothing. 0 to 1.
 */
export function centrality(candidates: Candidate[]): number[] {
  const called = candidates.map((c) => calledNames(c.code));
  const frequency = new Map(Object.entries(docsCallCounts(candidates, called).calls));
  const recurring = new Set([...frequency].filter(([, count]) => count >= 2).map(([name]) => name));
  if (!recurring.size) return called.map(() => 0);
  const full = Math.min(3, recurring.size);
  return called.map((names, i) => (candidates[i]!.origin === 'api' ? 0 : Math.min(1, [...names].filter((n) => recurring.has(n)).length / full)));
}

/**
 * How far from the entry point a doctest lives: the module path below the package's top module (pandas/core/apply.py
 * → 2, requests/status_codes.py → 1, the top `__init__.py` or a crate's lib.rs → 0), and whether a segment is private
 * (`_libs`, `_internal`). A doctest deep in the package documents a helper, not what the package is for.
 */
export function doctestDepth(candidate: Candidate, ecosystem: Ecosystem, importName: string): { depth: number; private: boolean; modules: string[] } | undefined {
  if (candidate.origin !== 'doctest') return undefined;
  let parts: string[];
  if (ecosystem === 'pypi') {
    const segments = candidate.path.replace(/\.py$/, '').split('/');
    const start = segments.indexOf(importName.split('.')[0]!);
    if (start < 0) return undefined;
    parts = segments.slice(start + 1).filter((p) => p !== '__init__');
  } else if (ecosystem === 'crates') {
    const segments = candidate.path.replace(/\.rs$/, '').split('/');
    const start = segments.indexOf('src');
    if (start < 0) return undefined;
    parts = segments.slice(start + 1).filter((p) => p !== 'lib' && p !== 'mod');
  } else return undefined;
  return { depth: parts.length, private: parts.some((p) => p.startsWith('_')), modules: parts };
}

/** What the entry point exports by name (Python's `__init__.py` bindings): calls of these are the public API. */
export interface ApiFacts { publicNames?: string[] }

/**
 * How central a candidate's API is beyond the page's own recurrence: calls of the entry point's public names count
 * up; doctests of modules deep in the package (a private helper's, pandas' `relabel_result`) count down, more when the
 * module is private or the doctest calls nothing public.
 */
function entryPointSignal(candidate: Candidate, ecosystem: Ecosystem, importName: string, facts: ApiFacts): { delta: number; signal?: string } {
  if (candidate.origin === 'api') return { delta: 0 };
  const publicNames = new Set(facts.publicNames ?? []);
  const callsPublic = publicNames.size > 0 && [...calledNames(candidate.code)].some((n) => publicNames.has(n));
  // `from pandas.core.apply import relabel_result`: a name the entry point does not export, fetched from inside.
  const inner = ecosystem === 'pypi' && publicNames.size ? internalImports(candidate.code, importName, publicNames) : [];
  if (inner.length) return { delta: -4, signal: `uses internals (${inner.slice(0, 2).join(', ')})` };
  // A doctest in the docstring of a name the entry point exports documents the public API wherever its module lives
  // (pandas' DataFrame is defined in pandas/core/frame.py): the name itself first, then its methods.
  const owner = candidate.owner?.split('.');
  // `_helper` is private; `__init__` and the other special methods are not.
  const isPrivate = (part: string) => part.startsWith('_') && !/^__\w+__$/.test(part);
  const depth = doctestDepth(candidate, ecosystem, importName);
  // The entry point's name is the module the doctest lives in (rapidfuzz exports the subpackage `distance`; the
  // doctest documents `distance()` of rapidfuzz/distance/Levenshtein_py.py): the same word, not the same thing.
  const namesItsModule = Boolean(owner && depth?.modules.includes(owner[0]!));
  if (owner && publicNames.has(owner[0]!) && !owner.some(isPrivate) && !namesItsModule) {
    return owner.length === 1 ? { delta: 2, signal: `documents ${owner[0]}, a public name of the entry point` } : { delta: 1, signal: `documents a method of ${owner[0]}, a public name` };
  }
  if (owner?.some(isPrivate) && depth) {
    return { delta: -Math.min(3, depth.depth) - 2, signal: `doctest of a private helper (${candidate.owner})` };
  }
  if (depth && (depth.depth > 0 || depth.private)) {
    const delta = -Math.min(3, depth.depth) - (depth.private ? 2 : 0) - (publicNames.size && !callsPublic ? 1 : 0);
    return { delta, signal: `doctest of an inner module (depth ${depth.depth}${depth.private ? ', private' : ''})` };
  }
  return callsPublic ? { delta: 1, signal: 'calls the entry point\'s public API' } : { delta: 0 };
}

/** Names a Python example imports from a module inside the package that the package's entry point does not export. */
export function internalImports(code: string, importName: string, publicNames: Set<string>): string[] {
  const root = importName.split('.')[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const names: string[] = [];
  for (const match of code.matchAll(new RegExp(`^\\s*(?:>>>\\s*)?from\\s+${root}\\.([\\w.]+)\\s+import\\s+(?:\\(([\\w\\s,]+)\\)|([\\w \\t,]+))`, 'gm'))) {
    // An underscored module is internal whatever it holds; otherwise only what the entry point does not export is.
    for (const name of (match[2] ?? match[3] ?? '').split(',').map((n) => n.trim().split(/\s+as\s+/)[0]!).filter(Boolean)) {
      // A public module one level down (`cryptography.fernet`, `packaging.version`) is API the docs point to; deeper
      // (`pandas.core.apply`) or underscored modules are internals.
      const path = match[1]!.split('.');
      if (path.some((part) => part.startsWith('_')) || (!publicNames.has(name) && path.length > 1)) names.push(name);
    }
  }
  return names;
}

/**
 * Candidates best first; equal scores keep their document order (README before docs before doc comments). Programs
 * tooldex writes from the API come after every real example, whatever their score (they have runs of their own).
 */
export function rankCandidates(candidates: Candidate[], ecosystem: Ecosystem, name: string, importName: string, bindings: string[] = [], facts: ApiFacts = {}): ScoredCandidate[] {
  const central = centrality(candidates);
  // The README's first usage example is the author's lead (xmltodict's plain `parse`, before the options that tune
  // it): a point over the README's later, narrower examples.
  const lead = candidates.findIndex((c) => c.origin === 'readme' && !c.combinedFrom && !c.localWeb && !importsOnly(c.code));
  // What the docs' own examples call: a program tooldex writes teaches more when it calls what they call.
  const docsCalls = new Set(candidates.filter((c) => c.origin !== 'api').flatMap((c) => [...calledNames(c.code)]));
  return candidates.map((c, index) => {
    let scored = scoreCandidate(c, ecosystem, name, importName, bindings);
    if (c.origin === 'api') {
      const calls = [...calledNames(c.code)];
      if (calls.some((n) => docsCalls.has(n))) scored = { ...scored, score: scored.score + 2, signals: [...scored.signals, 'calls what the docs\' examples call'] };
      if (calls.some((n) => n.startsWith('_'))) scored = { ...scored, score: scored.score - 3, signals: [...scored.signals, 'calls an underscored (internal) name'] };
    }
    // Up to 2 points for exercising the API the package's examples keep coming back to (a fraction: it breaks ties).
    const bonus = Math.round(20 * central[index]!) / 10;
    if (bonus) scored = { ...scored, score: scored.score + bonus, signals: [...scored.signals, 'central API'] };
    if (index === lead) scored = { ...scored, score: scored.score + 1, signals: [...scored.signals, 'the README\'s first example'] };
    const entry = entryPointSignal(c, ecosystem, importName, facts);
    if (entry.delta) scored = { ...scored, score: scored.score + entry.delta, signals: [...scored.signals, entry.signal!] };
    return { scored, index };
  })
    .filter((entry) => !entry.scored.signals.includes('imports only'))
    .sort((a, b) => Number(a.scored.origin === 'api') - Number(b.scored.origin === 'api') || b.scored.score - a.scored.score || a.index - b.index).map((entry) => entry.scored);
}
