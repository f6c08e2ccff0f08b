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
  // No prototype: a declared `toString` or `constructor` is a key like any other.
  const types: ParameterTypes = Object.create(null) as ParameterTypes;
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
        const overload = namedChildren(params).filter((p) => /^(required_parameter|optional_parameter)$/.test(p.type))
          .map((p) => p.childForFieldName('type')?.text.replace(/^:\s*/, '') ?? '');
        (types[name] ??= []).push(overload);
      }
    });
  }
  return types;
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

const DATA_LANGUAGES = ['csv', 'tsv', 'xml', 'json', 'yaml', 'yml', 'html', 'toml', 'ini', 'markdown', 'md', 'css', 'svg'];

/**
 * A sample for one declared type: a string first when the type admits one (the docs' data block when the name says
 * which kind), else the first alternative that has one: numbers, booleans, arrays (of strings, rows, records), an
 * empty object for object-like types.
 */
function sampleFor(type: string, name: string, dataBlocks: Array<{ language: string; code: string }>): string | undefined {
  const alternatives = type.split('|').map((t) => t.trim());
  if (alternatives.includes('string')) {
    // The docs' own data when the name says which kind (`csvString`, `XMLdata`) and they show a block of it.
    const kind = DATA_LANGUAGES.find((lang) => name.toLowerCase().includes(lang));
    const block = kind ? dataBlocks.find((b) => b.language.toLowerCase() === kind || (kind === 'yml' && b.language === 'yaml')) : undefined;
    return JSON.stringify(block ? block.code.trim() : 'example');
  }
  for (const alternative of alternatives) {
    const sample = plainSample(alternative);
    if (sample) return sample;
  }
  return undefined;
}

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
export async function sampleValues(code: string, grammar: Grammar, names: string[], types: ParameterTypes, dataBlocks: Array<{ language: string; code: string }> = []): Promise<Record<string, string>> {
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
    for (const overload of (Object.hasOwn(types, name ?? '') ? types[name!] : undefined) ?? []) {
      const sample = overload[index] ? sampleFor(overload[index]!, id.text, dataBlocks) : undefined;
      if (sample) { values[id.text] = sample; break; }
    }
  }
  return values;
}
