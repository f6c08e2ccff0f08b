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
export async function namedFiles(code: string, grammar: Grammar, own: string[] = []): Promise<string[]> {
  const kinds = STRING_CONTENT[grammar];
  if (!kinds) return [];
  const root = await parseCode(grammar, code);
  const names: string[] = [];
  for (const node of descendants(root, kinds)) {
    const text = node.text;
    if (!FILE_NAME.test(text) || NOT_DATA.test(text) || own.includes(text) || names.includes(text) || isSpecifier(node)) continue;
    names.push(text);
  }
  return names.length <= MAX_FIXTURES ? names : [];
}

/** The file a failed run says is missing (`ENOENT: … open 'example.ini'`, `FileNotFoundError: … 'data.csv'`). */
export function missingFile(stderr: string): string | undefined {
  const name = /ENOENT: no such file or directory, (?:open|stat|scandir|lstat) '([^']+)'/.exec(stderr)?.[1]
    ?? /FileNotFoundError: \[Errno 2\] No such file or directory: '([^']+)'/.exec(stderr)?.[1];
  const base = name?.replace(/^\/(workspace|tmp\/\w+)\//, '');
  return base && FILE_NAME.test(base) && !NOT_DATA.test(base) ? base : undefined;
}

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

export function fixtureNote(names: string[], fromDocs: string[] = []): string {
  const empty = names.filter((n) => !fromDocs.includes(n));
  const parts = [
    fromDocs.length ? `tooldex created ${fromDocs.join(', ')} with the content the docs show for ${fromDocs.length > 1 ? 'them' : 'it'}` : '',
    empty.length ? `tooldex created ${fromDocs.length ? `${empty.join(', ')} ` : ''}${empty.length > 1 ? 'them' : 'it'} empty in the sandbox's workspace` : '',
  ].filter(Boolean);
  return `The example looks for ${names.join(', ')}, which a reader would have beside it; ${parts.join('; ')}.`;
}
