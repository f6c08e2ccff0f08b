// Files an example looks for that a reader would have beside it (`findUp('unicorn.png')`, `locatePath(['rainbow.png'])`,
// `open('example.ini')`): the sandbox's workspace is empty, so the example finds nothing and prints `undefined`. A
// careful engineer reproducing it creates the file first; tooldex does the same, with empty files, and says so.
import { descendants, parseCode, type Grammar, type SyntaxNode } from './parse.ts';

/** A plain relative file name: no directory, no scheme, an extension that starts with a letter (`1.2.3` is a version). */
const FILE_NAME = /^[A-Za-z_][\w-]*(\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}$/;
/** Extensions that name code or hosts rather than a data file an example reads. */
const NOT_DATA = /\.(js|mjs|cjs|ts|mts|cts|jsx|tsx|py|rs|go|rb|com|org|net|io|dev|exe|so|dll|node)$/i;
/** At most this many files are created: more means the strings are data, not files to find. */
const MAX_FIXTURES = 4;

const STRING_CONTENT: Record<string, string[]> = {
  javascript: ['string_fragment'], typescript: ['string_fragment'], tsx: ['string_fragment'], python: ['string_content'], ruby: ['string_content'],
};

/** Whether a string node is a module specifier (`import … from 'x'`, `require('x')`, `import('x')`), not a file to find. */
function isSpecifier(node: SyntaxNode): boolean {
  const string = node.parent;
  const holder = string?.parent;
  if (!holder) return false;
  if (/^(import_statement|export_statement|import_from_statement|import_statement)$/.test(holder.type)) return true;
  const call = holder.type === 'arguments' ? holder.parent : undefined;
  const callee = call?.childForFieldName('function')?.text;
  return callee === 'require' || callee === 'import';
}

/**
 * The file names an example's string literals give, in order, that the program does not bring itself: candidates
 * for empty stand-in files in the workspace. Empty when there are none or too many to be files the example looks for.
 */
export async function namedFiles(code: string, grammar: Grammar, own: string[] = [], withDirectories = false): Promise<string[]> {
  const kinds = STRING_CONTENT[grammar];
  if (!kinds) return [];
  const root = await parseCode(grammar, code);
  const names: string[] = [];
  for (const node of descendants(root, kinds)) {
    const text = node.text;
    // A path with directories (`out/conf.toml`) is a file the example writes as often as one it reads: taken where the
    // caller reports what was written (node-files.ts, python-files.ts), not as a stand-in to create.
    const named = FILE_NAME.test(text) || (withDirectories && text.includes('/') && RELATIVE.test(text) && HAS_EXTENSION.test(text));
    if (!named || NOT_DATA.test(text) || own.includes(text) || names.includes(text) || isSpecifier(node)) continue;
    names.push(text);
  }
  return names.length <= MAX_FIXTURES ? names : [];
}

/**
 * Files the sandbox itself reads from a request (a manifest is honoured: its dependencies are installed) or that the
 * program already is: never made as a stand-in input.
 */
const NOT_INPUT = /(^|\/)(Cargo\.toml|Cargo\.lock|go\.mod|go\.sum|package\.json|package-lock\.json|pyproject\.toml|requirements\.txt|setup\.cfg)$|^(node_modules|src\/main\.rs)(\/|$)/;
/** A relative path inside the workspace: plain segments, no `..`, at most six deep. */
const RELATIVE = /^(?!\.\.?\/)([\w][\w.-]*\/){0,5}[\w][\w.-]*\/?$/;
/** An extension that starts with a letter (`1.2.3` is a version, not a file). */
const HAS_EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,5}$/;

/**
 * A path the failed run names as missing, relative to the workspace: a directory (written with a trailing `/`) when
 * the call that failed lists or copies one (`scandir`, Go's `lstat` of a path with no extension), else a file. An
 * example reads a placeholder (`./path/to/schema.json`, `copy.Copy("your/directory", …)`) or writes into a directory
 * the reader's project has (`File::create("tests/samples/beacon.gif")`): either way the run stops on a path the
 * workspace lacks, and a reader reproducing it would create it first. Rust's I/O error names no path, only the line
 * that panicked: the path is the string literal on that line of the program (`code`).
 */
export function missingPath(stderr: string, code?: string): string | undefined {
  const found = nodeOrPythonPath(stderr) ?? goPath(stderr) ?? rustIncludePath(stderr) ?? (code ? rustPath(stderr, code) : undefined);
  if (!found) return undefined;
  const path = found.path.replace(/^\/(workspace|tmp\/\w+)\//, '').replace(/^\.\//, '');
  if (!RELATIVE.test(path) || NOT_INPUT.test(path) || NOT_DATA.test(path)) return undefined;
  const directory = found.directory ?? !HAS_EXTENSION.test(path);
  // A file needs a name that says it is one: a bare word with no extension is a directory only where the call said so.
  if (!directory && !HAS_EXTENSION.test(path)) return undefined;
  return directory ? `${path.replace(/\/$/, '')}/` : path;
}

/** `directory` undefined: the call works on either, and a path with no extension is taken for a directory. */
interface FoundPath { path: string; directory?: boolean }

function nodeOrPythonPath(stderr: string): FoundPath | undefined {
  const node = /ENOENT: no such file or directory, (open|stat|lstat|scandir|opendir|access) '([^']+)'/.exec(stderr);
  if (node) return { path: node[2]!, directory: /^(scandir|opendir)$/.test(node[1]!) ? true : node[1] === 'open' ? false : undefined };
  // An ES module importing a data file (`import schema from './path/to/schema.json'`) the workspace lacks.
  const esm = /Cannot find module '(\/workspace\/[^']+)' imported from/.exec(stderr)?.[1];
  if (esm && HAS_EXTENSION.test(esm) && DATA_EXTENSION.test(esm)) return { path: esm, directory: false };
  const python = /(?:FileNotFoundError|NotADirectoryError): \[Errno 2\] No such file or directory: '([^']+)'/.exec(stderr)?.[1];
  return python ? { path: python, directory: false } : undefined;
}

/** Go's `*PathError`: `open x: no such file or directory`, `lstat your/src: no such file or directory`. */
function goPath(stderr: string): FoundPath | undefined {
  const go = /\b(open|lstat|stat|readdir|opendir) ([^\s:'"]+): no such file or directory/.exec(stderr);
  return go ? { path: go[2]!, directory: go[1] === 'open' ? false : undefined } : undefined;
}

/**
 * Rust's compile-time includes (`include_str!("page.html")`, `include_bytes!`): rustc names the path it resolved,
 * relative to the crate root the build runs in (`error: couldn't read \`src/page.html\`: No such file or directory`).
 * Always a file: the macro reads one.
 */
function rustIncludePath(stderr: string): FoundPath | undefined {
  const path = /^error: couldn't read `([^`]+)`: No such file or directory/m.exec(stderr)?.[1];
  return path ? { path, directory: false } : undefined;
}

/** Rust: the path literal on the line of `src/main.rs` that panicked on a `NotFound` I/O error. */
function rustPath(stderr: string, code: string): FoundPath | undefined {
  if (!/kind: NotFound/.test(stderr)) return undefined;
  const line = /panicked at src\/main\.rs:(\d+):\d+/.exec(stderr)?.[1];
  const text = line ? code.split('\n')[Number(line) - 1] : undefined;
  if (!text) return undefined;
  // The line's string literals, read as Rust's lexer reads a plain `"…"` literal (escapes skipped), in order.
  for (const literal of text.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    const value = literal[1]!;
    if (/^[\w.-]+(\/[\w.-]+)*\/?$/.test(value) && (value.includes('/') || HAS_EXTENSION.test(value))) return { path: value };
  }
  return undefined;
}

/** Extensions of data files with a text form a small sample of can be written (binary formats are left empty). */
const DATA_EXTENSION = /\.(json|jsonc|json5|ya?ml|toml|ini|cfg|conf|csv|tsv|txt|text|md|markdown|html?|xml|log)$/i;

/**
 * A small, valid document of the file's kind, for an input the docs do not show: an empty `schema.json` is not JSON,
 * so the example would fail on the stand-in instead of running. Undefined for kinds with no text form (an image).
 */
export function sampleContent(path: string): string | undefined {
  const ext = /\.(\w+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  if (/^(json|jsonc|json5)$/.test(ext)) return '{}\n';
  if (/^ya?ml$/.test(ext)) return 'name: example\nvalue: 1\n';
  if (ext === 'toml') return 'name = "example"\nvalue = 1\n';
  if (/^(ini|cfg|conf)$/.test(ext)) return '[example]\nname = example\nvalue = 1\n';
  if (ext === 'csv') return 'name,value\nexample,1\nsample,2\n';
  if (ext === 'tsv') return 'name\tvalue\nexample\t1\nsample\t2\n';
  if (/^html?$/.test(ext)) return '<!doctype html>\n<html><head><title>Example</title></head><body><p>Example text.</p></body></html>\n';
  if (ext === 'xml') return '<?xml version="1.0" encoding="UTF-8"?>\n<example><item name="a">1</item><item name="b">2</item></example>\n';
  if (/^(md|markdown)$/.test(ext)) return '# Example\n\nSome *example* text.\n';
  if (/^(txt|text|log)$/.test(ext)) return 'Example text, one line.\nA second line.\n';
  return undefined;
}

/** The one file a stand-in directory holds, so that listing or copying it has something to work on. */
export const DIRECTORY_SAMPLE = 'example.txt';

/** A block of data the docs show (an ini, YAML, JSON… file), with the page it is on. */
export interface DataBlock { path: string; language: string; code: string }

/** Fence languages of data files, by the extension of the file they are the content of. */
const DATA_LANGUAGES: Record<string, RegExp> = {
  ini: /^(ini|cfg|dosini|conf)$/, cfg: /^(ini|cfg|dosini|conf)$/, conf: /^(ini|cfg|dosini|conf)$/, toml: /^toml$/, yaml: /^ya?ml$/, yml: /^ya?ml$/,
  json: /^(json|jsonc|json5)$/, csv: /^csv$/, tsv: /^tsv$/, xml: /^xml$/, html: /^html$/, txt: /^(text|txt|plain)$/, md: /^(md|markdown)$/,
};
export const DATA_LANGUAGE = /^(ini|cfg|dosini|conf|toml|ya?ml|json|jsonc|json5|csv|tsv|xml|html|text|txt|plain|md|markdown)$/;

/**
 * What the docs show as the content of a file an example reads (iniconfig's README: "If you have an ini file like
 * this: `# content of example.ini` …, then you can do: `IniConfig("example.ini")`"): a data block that names the
 * file, else the one data block of the file's kind on the example's page (more than one: it is not known which).
 */
export function fixtureContent(name: string, blocks: DataBlock[], page: string): string | undefined {
  const named = blocks.filter((b) => b.code.split('\n').slice(0, 3).some((line) => line.includes(name)));
  const pick = named.find((b) => b.path === page) ?? named[0];
  if (pick) return pick.code;
  const kind = DATA_LANGUAGES[/\.(\w+)$/.exec(name)?.[1]?.toLowerCase() ?? ''];
  const same = kind ? blocks.filter((b) => b.path === page && kind.test(b.language)) : [];
  return same.length === 1 ? same[0]!.code : undefined;
}

/** What the stand-in for a name holds, and where it came from: the docs, a sample of its kind, or nothing. */
export function fixtureFile(name: string, blocks: DataBlock[], page: string): { path: string; code: string; from: 'docs' | 'sample' | 'empty' | 'directory' } {
  if (name.endsWith('/')) return { path: `${name}${DIRECTORY_SAMPLE}`, code: sampleContent(DIRECTORY_SAMPLE)!, from: 'directory' };
  const docs = fixtureContent(name, blocks, page);
  if (docs !== undefined) return { path: name, code: docs, from: 'docs' };
  const sample = sampleContent(name);
  return sample !== undefined ? { path: name, code: sample, from: 'sample' } : { path: name, code: '', from: 'empty' };
}

/** The note for the stand-ins tooldex created, by where their content came from. */
export function fixtureNote(names: string[], fromDocs: string[] = [], sampled: string[] = []): string {
  const directories = names.filter((n) => n.endsWith('/'));
  const empty = names.filter((n) => !fromDocs.includes(n) && !sampled.includes(n) && !n.endsWith('/'));
  const them = (list: string[]) => (list.length > 1 ? 'them' : 'it');
  const parts = [
    fromDocs.length ? `tooldex created ${fromDocs.join(', ')} with the content the docs show for ${them(fromDocs)}` : '',
    sampled.length ? `tooldex created ${sampled.join(', ')} with a small sample of ${sampled.length > 1 ? 'their kinds' : 'its kind'} (the docs show none)` : '',
    directories.length ? `tooldex created the director${directories.length > 1 ? 'ies' : 'y'} ${directories.join(', ')} with one small text file (${DIRECTORY_SAMPLE})` : '',
    empty.length ? `tooldex created ${fromDocs.length || sampled.length || directories.length ? `${empty.join(', ')} ` : ''}${them(empty)} empty in the sandbox's workspace` : '',
  ].filter(Boolean);
  return `The example looks for ${names.join(', ')}, which a reader would have beside it; ${parts.join('; ')}.`;
}
