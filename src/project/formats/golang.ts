// Go: go.mod and go.sum. go.mod has a small, fully specified line grammar (golang.org/ref/mod#go-mod-file-grammar):
// directives, `(`…`)` blocks, `//` comments, quoted or bare tokens. It is tokenised here by that grammar; the one
// maintained parser (golang.org/x/mod/modfile) is Go and cannot run in this process.
import { ManifestError, type LockedDependency, type ParsedFile } from '../types.ts';

const DIRECTIVES = new Set(['module', 'go', 'toolchain', 'godebug', 'require', 'exclude', 'replace', 'retract', 'tool', 'ignore']);

interface Line { verb: string; args: string[]; comment: string; number: number }

/** Splits one line into tokens (bare, "interpreted" or `raw` strings) and its trailing `//` comment. */
function tokenize(text: string, number: number, file: string): { tokens: string[]; comment: string } {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\r') { i++; continue; }
    if (text.startsWith('//', i)) return { tokens, comment: text.slice(i + 2).trim() };
    if (ch === '"' || ch === '`') {
      const end = ch === '"' ? findClosingQuote(text, i) : text.indexOf('`', i + 1);
      if (end < 0) throw new ManifestError(file, 'unterminated string', number);
      const literal = text.slice(i, end + 1);
      tokens.push(ch === '"' ? (JSON.parse(literal) as string) : literal.slice(1, -1));
      i = end + 1;
      continue;
    }
    if (ch === '(' || ch === ')') { tokens.push(ch); i++; continue; }
    let end = i;
    while (end < text.length && !/[\s()"`]/.test(text[end]!) && !text.startsWith('//', end)) end++;
    tokens.push(text.slice(i, end));
    i = end;
  }
  return { tokens, comment: '' };
}

function findClosingQuote(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** go.mod as directive lines, block members carrying their block's verb. */
function directiveLines(file: string, text: string): Line[] {
  const lines: Line[] = [];
  let block: string | undefined;
  text.split('\n').forEach((raw, index) => {
    const number = index + 1;
    const { tokens, comment } = tokenize(raw, number, file);
    if (tokens.length === 0) return;
    if (block) {
      if (tokens[0] === ')' && tokens.length === 1) { block = undefined; return; }
      lines.push({ verb: block, args: tokens, comment, number });
      return;
    }
    const [verb = '', ...args] = tokens;
    if (!DIRECTIVES.has(verb)) throw new ManifestError(file, `unknown directive: ${verb}`, number);
    if (args.length === 1 && args[0] === '(') { block = verb; return; }
    lines.push({ verb, args, comment, number });
  });
  if (block) throw new ManifestError(file, `the ${block} ( block is not closed`, text.split('\n').length);
  return lines;
}

/** A replacement target that is a folder (`./fork`, `../x`, `/abs`) is not a module the proxy serves. */
const isLocalPath = (path: string) => /^(?:\.{1,2}\/|\/|[A-Za-z]:\\)/.test(path) || path === '.' || path === '..';

export function parseGoMod(file: string, text: string): ParsedFile {
  const lines = directiveLines(file, text);
  if (!lines.some((line) => line.verb === 'module')) throw new ManifestError(file, 'no module directive: not a go.mod', 1);
  const replacements = new Map<string, { path: string; version?: string }>();
  for (const line of lines.filter((l) => l.verb === 'replace')) {
    const arrow = line.args.indexOf('=>');
    if (arrow < 1 || arrow > 2 || line.args.length - arrow - 1 < 1) throw new ManifestError(file, 'replace needs `old [version] => new [version]`', line.number);
    const [oldPath = '', oldVersion] = line.args.slice(0, arrow);
    const [newPath = '', newVersion] = line.args.slice(arrow + 1);
    replacements.set(oldVersion ? `${oldPath}@${oldVersion}` : oldPath, { path: newPath, ...(newVersion ? { version: newVersion } : {}) });
  }
  const direct: LockedDependency[] = [];
  const indirect: LockedDependency[] = [];
  for (const line of lines.filter((l) => l.verb === 'require')) {
    const [path, version] = line.args;
    if (!path || !version || line.args.length !== 2 || !/^v\d/.test(version)) throw new ManifestError(file, 'require needs `module/path vX.Y.Z`', line.number);
    const replaced = replacements.get(`${path}@${version}`) ?? replacements.get(path);
    if (replaced && isLocalPath(replaced.path)) continue;
    const dependency: LockedDependency = replaced
      ? { ecosystem: 'go', name: replaced.path, version: replaced.version ?? version, requested: `${path} ${version} (replaced)` }
      : { ecosystem: 'go', name: path, version };
    (/(^|;\s*)indirect(\s*;|$)/.test(line.comment) ? indirect : direct).push(dependency);
  }
  const goVersion = lines.find((line) => line.verb === 'go')?.args[0];
  return { file, format: `go.mod${goVersion ? ` (go ${goVersion})` : ''}`, ecosystem: 'go', direct, locked: [...direct, ...indirect] };
}

export function parseGoSum(file: string, text: string): ParsedFile {
  const locked: LockedDependency[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const [path, version, hash, extra] = line.split(/\s+/);
    if (!path || !version || !hash?.startsWith('h1:') || extra !== undefined) throw new ManifestError(file, 'expected `module version h1:hash`', index + 1);
    // `v1.2.3/go.mod` lines only hash a module's go.mod (read for version selection, not built).
    if (version.endsWith('/go.mod') || seen.has(`${path}@${version}`)) return;
    seen.add(`${path}@${version}`);
    locked.push({ ecosystem: 'go', name: path, version });
  });
  return { file, format: 'go.sum', ecosystem: 'go', locked };
}
