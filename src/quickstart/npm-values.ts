// Values an npm example introduces in prose (`Papa.parse(csvString)`, `parser.parse(XMLdata)`): names it reads that
// nothing binds, neither the example, Node, nor the package's real exports (the probe run's report). Given a stand-in
// before the first run, each gets a sample value from the declared type of the parameter it is passed to (the
// package's own declarations or DefinitelyTyped's `@types/<name>/`), and a string parameter gets the docs' own data
// block when the name says which (`csvString` and a ```csv block); with no declared type it stays undefined, as before.
import { textOf, type ArchiveFile } from '../docs/archive.ts';
import { descendants, namedChildren, parseCode, withSyntaxTree, type Grammar, type SyntaxNode } from './parse.ts';
import type { NpmExports } from './imports.ts';

/** Declared parameter types by function or method name (`parse` → each overload's parameter types, in order). */
export type ParameterTypes = Record<string, string[][]>;

const MAX_DECLARATION_FILES = 40;
const MAX_DECLARATION_BYTES = 400_000;

/** The parameter types every declaration file of the artifact declares, per function, method and class constructor. */
export async function declaredParameterTypes(files: ArchiveFile[]): Promise<ParameterTypes> {
  return (await declaredParameters(files)).types;
}

/**
 * The declared parameters: types, and names in the same shape (`parse(csvString: string, …)` → `[['csvString', …]]`).
 * A declared name says what kind of text a string parameter takes where the example's own name does not (`file`).
 */
export async function declaredParameters(files: ArchiveFile[]): Promise<{ types: ParameterTypes; names: ParameterTypes }> {
  // No prototype: a declared `toString` or `constructor` is a key like any other.
  const types: ParameterTypes = Object.create(null) as ParameterTypes;
  const names: ParameterTypes = Object.create(null) as ParameterTypes;
  const declarations = files.filter((f) => /\.d\.(ts|mts|cts)$/.test(f.path) && f.bytes.length <= MAX_DECLARATION_BYTES).slice(0, MAX_DECLARATION_FILES);
  for (const file of declarations) {
    // Up to 40 files of 400 KB: each tree is freed as soon as its parameter types are read (no node is kept).
    await withSyntaxTree('typescript', textOf(file), (root) => {
      for (const fn of descendants(root, ['function_signature', 'function_declaration', 'method_signature', 'method_definition', 'construct_signature'])) {
        let name = fn.childForFieldName('name')?.text ?? '';
        // A constructor is called by its class's name (`new XMLParser(options)`).
        if (name === 'constructor' || fn.type === 'construct_signature') {
          let owner: SyntaxNode | null = fn.parent;
          while (owner && !/class_declaration|interface_declaration/.test(owner.type)) owner = owner.parent;
          name = owner?.childForFieldName('name')?.text ?? '';
        }
        const params = fn.childForFieldName('parameters');
        if (!name || !params) continue;
        const declared = namedChildren(params).filter((p) => /^(required_parameter|optional_parameter)$/.test(p.type));
        (types[name] ??= []).push(declared.map((p) => p.childForFieldName('type')?.text.replace(/^:\s*/, '') ?? ''));
        (names[name] ??= []).push(declared.map((p) => p.childForFieldName('pattern')?.text ?? ''));
      }
    });
  }
  return { types, names };
}

/** Whether `id` is the package's (a named export, or a property of its default export) by the probe's report. */
export function exportedByPackage(id: string, exports: NpmExports): boolean {
  return Boolean(exports.esm?.named.includes(id) || exports.defaultKeys?.includes(id));
}

/**
 * Names the example reads that nothing binds: not the program, not JavaScript or Node (the host's own globals, the
 * same Node as the sandbox's), not the package's exports, not a name the docs bind the package to.
 */
export function proseValues(free: string[], exports: NpmExports, bound: (id: string) => boolean): string[] {
  return free.filter((id) => !(id in globalThis) && !exportedByPackage(id, exports) && !bound(id));
}

/**
 * The kind of text a name says (`csvString` → csv, `XMLdata` → xml, `markdown_text` → markdown), if any: one of its
 * words is the kind, alone or with a word for text after it (`initValue` is no INI, `cmd` no Markdown).
 */
const kindOf = (text: string) => {
  const words = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/);
  return DATA_LANGUAGES.find((lang) => words.some((w) => new RegExp(`^${lang}(string|str|data|text|input|content|source|doc|document|file)?$`).test(w)));
};

const DATA_LANGUAGES = ['csv', 'tsv', 'xml', 'json', 'yaml', 'yml', 'html', 'toml', 'ini', 'markdown', 'md', 'css', 'svg'];

/**
 * A sample for one declared type: a string first when the type admits one (the docs' data block when the name says
 * which kind), else the first alternative that has one: numbers, booleans, arrays (of strings, rows, records), an
 * empty object for object-like types.
 */
function sampleFor(type: string, name: string, dataBlocks: Array<{ language: string; code: string }>, declaredName = ''): string | undefined {
  const alternatives = type.split('|').map((t) => t.trim());
  if (alternatives.includes('string')) {
    // The docs' own data when the name says which kind (`csvString`, `XMLdata`) and they show a block of it; the
    // declaration's parameter name says it where the example's does not (`Papa.parse(file)`, declared `csvString`).
    const kind = kindOf(name) ?? kindOf(declaredName);
    const block = kind ? dataBlocks.find((b) => b.language.toLowerCase() === kind || (kind === 'yml' && b.language === 'yaml')) : undefined;
    // Without a block of that kind, a small document of it: "example" is no CSV or XML, and a parser given it shows
    // an empty or error result (papaparse's UndetectableDelimiter, fast-xml-parser's `{}`), not what it does.
    return JSON.stringify(block ? block.code.trim() : kind ? KIND_SAMPLES[kind] ?? 'example' : 'example');
  }
  for (const alternative of alternatives) {
    const sample = plainSample(alternative);
    if (sample) return sample;
  }
  return undefined;
}

/**
 * A text value a reader supplies, as a string literal (valid JavaScript and Python): of the kind its name says (the
 * docs' own block of it, else a small document of it), or for a name that only says "text" (`text1`, `src`,
 * `source`, `content`) the kind the docs show most, when they show data blocks; undefined when nothing says what it is.
 * Python-Markdown's docs call `md.convert(text1)` with `text1` never defined: Markdown, not None.
 */
export function textStandIn(name: string, dataBlocks: Array<{ language: string; code: string }> = []): string | undefined {
  const kind = kindOf(name);
  // The fullest document of that kind the docs show (up to 40 lines): the first is often a one-line corner case
  // (`{ #someid .someclass }` of an extension's page), the fullest shows the format at work.
  const size = (code: string) => Math.min(40, code.split('\n').filter((l) => l.trim()).length);
  const ofKind = (k: string) => dataBlocks.filter((b) => b.language.toLowerCase() === k || (k === 'yml' && b.language === 'yaml') || (k === 'md' && b.language === 'markdown'))
    .reduce<{ code: string } | undefined>((best, b) => (!best || size(b.code) > size(best.code) ? b : best), undefined);
  if (kind) return JSON.stringify(ofKind(kind)?.code.trim() ?? KIND_SAMPLES[kind] ?? 'example');
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
  if (!words.some((w) => /^(text|txt|src|source|content|contents|body|input|document|doc)$/.test(w))) return undefined;
  const packageKind = (dataBlocks as Array<{ language: string; code: string; path?: string }>).find((b) => b.path === PACKAGE_KIND);
  if (packageKind) return JSON.stringify(ofKind(packageKind.language)?.code.trim() ?? packageKind.code.trim());
  const counts = new Map<string, number>();
  for (const b of dataBlocks) {
    const k = kindOf(b.language);
    if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return common ? JSON.stringify(ofKind(common)?.code.trim() ?? KIND_SAMPLES[common]) : undefined;
}

/** A small document of each data kind a parameter's name can say, with a header, a nested element, two records. */
const KIND_SAMPLES: Record<string, string> = {
  csv: 'name,language,stars\ntooldex,TypeScript,42\nsample,Python,7\n',
  tsv: 'name\tlanguage\tstars\ntooldex\tTypeScript\t42\nsample\tPython\t7\n',
  xml: '<?xml version="1.0"?>\n<library name="example">\n  <book id="1"><title>First</title><year>2020</year></book>\n  <book id="2"><title>Second</title><year>2024</year></book>\n</library>',
  json: '{"name": "example", "tags": ["a", "b"], "stars": 42}',
  yaml: 'name: example\ntags:\n  - a\n  - b\nstars: 42\n',
  yml: 'name: example\ntags:\n  - a\n  - b\nstars: 42\n',
  html: '<div class="card"><h1>Example</h1><p>Some <b>bold</b> text and a <a href="/x">link</a>.</p></div>',
  toml: 'name = "example"\nstars = 42\n\n[owner]\nlogin = "sample"\n',
  ini: '[server]\nhost = example.org\nport = 8080\n',
  markdown: '# Example\n\nSome *emphasis* and a [link](https://example.org).\n\n- one\n- two\n',
  md: '# Example\n\nSome *emphasis* and a [link](https://example.org).\n\n- one\n- two\n',
  css: '.card { color: red; margin: 0 auto; }\n',
  svg: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
};

function plainSample(type: string): string | undefined {
  if (/^(number|bigint)$/.test(type)) return '2';
  if (type === 'boolean') return 'true';
  if (/^(string\[\]|Array<string>|readonly string\[\])$/.test(type)) return '["example", "sample"]';
  // Rows of a table (`Array<Array<any>>`, `any[][]`) and records (`Array<Object>`, `object[]`): what data-shaped
  // parameters (papaparse's `unparse(data)`) take.
  // An array of anything (`T[]`, `any[]`) takes rows too.
  if (/^(Array<(Array<\w*>|\w+\[\]|any|unknown|[A-Z])>|\w+\[\]\[\]|(any|unknown|[A-Z])\[\])$/.test(type)) return '[["example", "sample"], ["1", "2"]]';
  if (/^(Array<(Object|object|Record<.*>|\{.*\})>|(Object|object)\[\])$/.test(type)) return '[{ "example": 1, "sample": 2 }]';
  if (/^(object|Object|Record<.*>|\{[\s\S]*\}|Partial<.*>|\w*(Options|Config|Settings)(<.*>)?)$/.test(type)) return '{}';
  return undefined;
}

/**
 * A sample value for each prose value the example passes to a call whose declaration says the parameter's type
 * (the first overload with a usable type at that position). Names without one are left out (they stay undefined).
 */
export async function sampleValues(code: string, grammar: Grammar, names: string[], types: ParameterTypes, dataBlocks: Array<{ language: string; code: string }> = [], declaredNames: ParameterTypes = {}): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  if (!names.length) return values;
  const root = await parseCode(grammar, code);
  for (const id of descendants(root, 'identifier')) {
    if (!names.includes(id.text) || values[id.text] || id.parent?.type !== 'arguments') continue;
    const call = id.parent.parent;
    const callee = call?.childForFieldName('function') ?? call?.childForFieldName('constructor');
    if (!callee) continue;
    const name = callee.type === 'member_expression' ? callee.childForFieldName('property')?.text : callee.text;
    const index = namedChildren(id.parent).findIndex((n) => n.equals(id));
    const overloads = ((Object.hasOwn(types, name ?? '') ? types[name!] : undefined) ?? [])
      .map((overload, o) => ({ overload, declaredName: Object.hasOwn(declaredNames, name ?? '') ? declaredNames[name!]?.[o]?.[index] : undefined }));
    // An overload whose parameter name says the kind of text first (papaparse declares `parse(source: …)` before
    // `parse(csvString: string, …)`): it says what the function is for.
    overloads.sort((a, b) => Number(Boolean(b.declaredName && kindOf(b.declaredName))) - Number(Boolean(a.declaredName && kindOf(a.declaredName))));
    for (const { overload, declaredName } of overloads) {
      const sample = overload[index] ? sampleFor(overload[index]!, id.text, dataBlocks, declaredName) : undefined;
      if (sample) { values[id.text] = sample; break; }
    }
  }
  return values;
}

/**
 * The docs' data blocks, plus a small document of the kind the package is for when its name or its README's opening
 * sentence names one (`smol-toml`; "Blackfriday is a Markdown processor") and the docs show no block of it. A text
 * the example introduces in prose under a generic name (`output := blackfriday.Run(input)`, `const doc = '...'`) is
 * then a sample of what the package reads (textStandIn picks the kind the blocks show most), not left undefined.
 */
export function withPackageKind<T extends { path: string; language: string; code: string }>(blocks: T[], name: string, readme?: string): T[] {
  const opening = readme ? openingSentence(readme) : '';
  const kind = kindOf(name.replace(/^@[^/]+\//, '')) ?? (opening ? kindOf(opening) : undefined);
  if (!kind) return blocks;
  // Marked as the package's kind: a generic name (`input`) takes it over the kind the docs show most (blackfriday's
  // docs show more SVG than Markdown blocks). Its text is the docs' own block of that kind when they show one.
  const own = blocks.find((b) => kindOf(b.language) === kind);
  return [...blocks, { path: PACKAGE_KIND, language: kind, code: own?.code ?? KIND_SAMPLES[kind]! } as T];
}

/** The path of the data block that says which kind of document the package is for (withPackageKind). */
export const PACKAGE_KIND = '(the kind of document the package is for)';

/** The README's first sentence of prose: not a heading, badge, image, HTML tag, list, table or code. */
export function openingSentence(readme: string): string {
  // Images and badges go (their alt text and file names say SVG, PNG…); a link keeps its text.
  const plain = (p: string) => p.replace(/\[?!\[[^\]]*\](\([^)]*\)|\[[^\]]*\])(\]\([^)]*\)|\]\[[^\]]*\])?/g, '').replace(/\[([^\]]*)\](\([^)]*\)|\[[^\]]*\])/g, '$1').trim();
  const prose = readme.replace(/```[\s\S]*?```/g, '').split(/\n\s*\n/).map(plain)
    // Not a heading (`#`, or a title underlined with `===`/`---`), HTML, a table, a list, a directive or a field.
    .find((p) => p && !/^(#|<|\||[-*+] |=|\.\. |:)/.test(p) && !/^\s*(=+|-+)\s*$/m.test(p) && /[a-z]{3,}\s+[a-z]{2,}/i.test(p));
  return prose ? prose.replace(/\s+/g, ' ').split(/(?<=[.!?])\s/)[0]!.slice(0, 300) : '';
}

/** A string literal that only elides its content (`'...'`, `"…"`): the document a reader is meant to supply. */
const ELIDED = /^(['"`])\s*(\.\.\.|…)\s*\1$/;

/**
 * An example that binds a document it elides (smol-toml's README: `const doc = '...'` then `parse(doc)`) fails on
 * the placeholder or shows nothing. The literal becomes a sample of the text its name says (textStandIn: the docs'
 * own block of that kind, else the kind the docs or the package's name show most); the names filled, for the note.
 * Unchanged when nothing says what the text is.
 */
export async function fillElidedText(code: string, grammar: Grammar, dataBlocks: Array<{ language: string; code: string }> = []): Promise<{ code: string; names: string[] }> {
  if (!/(['"`])\s*(\.\.\.|…)\s*\1/.test(code)) return { code, names: [] };
  const edits = await withSyntaxTree(grammar, code, (root) => {
    const found: Array<{ start: number; end: number; text: string; name: string }> = [];
    for (const binding of descendants(root, ['variable_declarator', 'assignment'])) {
      const name = (binding.childForFieldName('name') ?? binding.childForFieldName('left'))?.text ?? '';
      const value = binding.childForFieldName('value') ?? binding.childForFieldName('right');
      if (!value || !/^\w+$/.test(name) || !/string/.test(value.type) || !ELIDED.test(value.text)) continue;
      const text = textStandIn(name, dataBlocks);
      if (text) found.push({ start: value.startIndex, end: value.endIndex, text, name });
    }
    return found;
  });
  let out = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = `${out.slice(0, edit.start)}${edit.text}${out.slice(edit.end)}`;
  return { code: out, names: edits.map((e) => e.name).reverse() };
}
