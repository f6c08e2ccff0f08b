// Import lines a context hands out, verified: the package's import lines of the program that ran (they ran), and for
// npm the lines derived from the package's real exports as one cheap sandbox run reports them (a default export or
// not, its named exports, whether `require` loads it). luxon has no default export, so `import luxon from 'luxon'`
// fails; the probe says so and the line handed out is `import { DateTime } from 'luxon'` or a namespace import.
import type { TestRequest } from '../sandbox/schema.ts';
import { camelName, importedSpecifiers, packageOf } from './programs/node.ts';
import { descendants, namedChildren, parseCode, type Grammar, type SyntaxNode } from './parse.ts';
import type { PackageInfo } from './types.ts';

/** What the probe run reports about an npm package's module shapes. */
export interface NpmExports {
  require: boolean;
  esm: { default: boolean; named: string[] } | null;
  /** The properties of what `require` or the default export gives (`Papa.parse` of papaparse's `parse`). */
  defaultKeys?: string[];
  /** The import's default is `require(name)` itself: Node loaded the CommonJS file, whose named exports are a guess. */
  commonjs?: boolean;
}

/** The probe program (CommonJS, so both `require` and `import()` are tried in one run); prints one JSON line. */
export function npmExportsProbe(info: Pick<PackageInfo, 'name' | 'version' | 'slug'>): TestRequest {
  const name = JSON.stringify(info.name);
  const code = `// tooldex: which import lines of ${info.name} load (its real exports).
const out = { require: false, esm: null, defaultKeys: [] };
const keys = (v) => (v && (typeof v === 'object' || typeof v === 'function') ? Object.keys(v).filter((k) => /^[A-Za-z_$][\\w$]*$/.test(k)).slice(0, 400) : []);
try { out.defaultKeys = keys(require(${name})); out.require = true; } catch {}
import(${name}).then((m) => {
  out.esm = { default: 'default' in m && m.default !== undefined, named: Object.keys(m).filter((k) => k !== 'default' && /^[A-Za-z_$][\\w$]*$/.test(k)) };
  if (out.require) { try { out.commonjs = m.default === require(${name}); } catch {} }
  if (!out.defaultKeys.length) out.defaultKeys = keys(m.default);
}, () => {}).finally(() => console.log(JSON.stringify(out)));
`;
  return { language: 'javascript', runtime: 'node', files: [{ path: 'probe.cjs', code }], packages: [`${info.name}@${info.version}`], slug: info.slug, env: [], timeoutMs: 30_000 };
}

export function readNpmExports(stdout: string): NpmExports | undefined {
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    const parsed = JSON.parse(line) as NpmExports;
    return typeof parsed.require === 'boolean' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The names a program uses from the package bare (`DateTime` in `DateTime.now()`), for a named import. */
async function usedNames(code: string, grammar: Grammar, candidates: string[]): Promise<string[]> {
  if (!code) return [];
  const root = await parseCode(grammar, code);
  const ids = new Set(descendants(root, ['identifier', 'type_identifier']).map((n) => n.text));
  return candidates.filter((n) => ids.has(n));
}

/** Import lines that load, from the probe's report: named imports of the names the quickstart uses, else default/namespace; require when it works. */
export async function npmImportLines(name: string, exports: NpmExports, quickstartCode = ''): Promise<string[]> {
  const binding = camelName(name);
  const lines: string[] = [];
  if (exports.esm) {
    const named = await usedNames(quickstartCode, 'typescript', exports.esm.named);
    if (named.length) lines.push(`import { ${named.slice(0, 4).join(', ')} } from '${name}';`);
    else if (exports.esm.default) lines.push(`import ${binding} from '${name}';`);
    else lines.push(`import * as ${binding} from '${name}';`);
  }
  if (exports.require) lines.push(`const ${binding} = require('${name}');`);
  return lines;
}

/**
 * The statements of a program that import the package (its import lines, as they ran). npm: a TypeScript program's
 * line may name types (`import { object, InferType } from 'yup'`); it ran because the transform erased them, but as
 * a line of JavaScript it fails ("does not provide an export named 'InferType'"). So types are left out of the lines
 * handed out: names marked `type`, `import type` statements, and names the package's declarations export as types
 * only (npm-exports.ts, the checker's symbol flags, passed in as `typeOnly` by the caller that read them for the
 * version it fetched) unless the probe of the real exports found them at run time. The type-only set describes the
 * main entry, so it filters lines importing the package's name itself, not a sub-path (`'pkg/sub'` has its own exports).
 */
export async function programImportLines(info: Pick<PackageInfo, 'ecosystem' | 'name' | 'importName'> & Partial<Pick<PackageInfo, 'version' | 'npmProbe'>>,
  code: string, language: string, path = '', typeOnly?: ReadonlySet<string>): Promise<string[]> {
  switch (info.ecosystem) {
    case 'npm': {
      const grammar: Grammar = /\.tsx$/.test(path) ? 'tsx' : /\.[mc]?ts$/.test(path) || language === 'typescript' ? 'typescript' : 'javascript';
      const root = await parseCode(grammar, code);
      const types = typeOnly ?? new Set<string>();
      const atRunTime = new Set(info.npmProbe?.exports?.esm?.named ?? []);
      const onlyType = (name: string) => types.has(name) && !atRunTime.has(name);
      const mainEntry = (s: SyntaxNode) => s.childForFieldName('source')?.text.slice(1, -1) === info.name;
      return namedChildren(root).filter((s) => /^(import_statement|lexical_declaration|variable_declaration)$/.test(s.type)
        && importedSpecifiers(s).some((spec) => packageOf(spec) === info.name) && !s.text.includes('\n')
        && (s.type === 'import_statement' || onlyLoads(s)))
        .map((s) => (s.type === 'import_statement' ? valueImportLine(s, mainEntry(s) ? onlyType : () => false) : s.text.trim()))
        .filter((line): line is string => !!line);
    }
    case 'pypi': {
      const root = info.importName.split('.')[0]!;
      const pattern = new RegExp(`^(import\\s+${root}(\\.[\\w.]+)?(\\s+as\\s+\\w+)?|from\\s+${root}(\\.[\\w.]+)?\\s+import\\s+[^(\\n]+)$`);
      // Not the doctest prelude's `import pkg.mod as _module` (tooldex's own scaffolding, no line to hand out).
      return code.split('\n').map((l) => l.trim()).filter((l) => pattern.test(l) && !/\sas\s+_\w*$/.test(l));
    }
    case 'crates':
      return code.split('\n').map((l) => l.trim()).filter((l) => new RegExp(`^use\\s+${info.importName}(::|;)`).test(l) && l.endsWith(';'));
    case 'go': {
      const root = await parseCode('go', code);
      return descendants(root, 'import_spec').map((spec) => spec.text.trim())
        .filter((spec) => spec.includes(`"${info.importName}`)).map((spec) => `import ${spec}`);
    }
    default: return [];
  }
}

/**
 * Whether a declaration only loads modules: each value is `require('…')` or `await import('…')`, or a property of one
 * (`require('x').parse`). `const queue = require('fastq')(worker, 1)` also calls the module with the program's own
 * names: as a line of its own it fails (`worker is not defined`), so it is not an import line.
 */
function onlyLoads(declaration: SyntaxNode): boolean {
  const declarators = namedChildren(declaration).filter((child) => child.type === 'variable_declarator');
  return declarators.length > 0 && declarators.every((declarator) => {
    let value = declarator.childForFieldName('value');
    if (value?.type === 'await_expression') value = namedChildren(value)[0] ?? null;
    while (value?.type === 'member_expression') value = value.childForFieldName('object');
    const callee = value?.type === 'call_expression' ? value.childForFieldName('function')?.text : undefined;
    const args = value ? namedChildren(value.childForFieldName('arguments') ?? value) : [];
    return (callee === 'require' || callee === 'import') && args.length === 1 && args[0]!.type === 'string';
  });
}

/**
 * An import statement without its types: the line itself when it names none; rebuilt from the remaining clauses when
 * it does; undefined when nothing that exists at run time is left (`import type …`, or only type names).
 */
export function valueImportLine(statement: SyntaxNode, onlyType: (name: string) => boolean): string | undefined {
  if (statement.children.some((child) => child?.type === 'type')) return undefined; // `import type { … }`
  const clause = namedChildren(statement).find((child) => child.type === 'import_clause');
  const source = statement.childForFieldName('source');
  if (!clause || !source) return statement.text.trim(); // `import 'pkg'`: a side-effect import, nothing named
  const named = namedChildren(clause).find((child) => child.type === 'named_imports');
  if (!named) return statement.text.trim();
  const specifiers = namedChildren(named).filter((child) => child.type === 'import_specifier');
  const kept = specifiers.filter((specifier) => !specifier.children.some((child) => child?.type === 'type')
    && !onlyType(specifier.childForFieldName('name')?.text ?? ''));
  if (kept.length === specifiers.length) return statement.text.trim();
  const others = namedChildren(clause).filter((child) => child.type !== 'named_imports').map((child) => child.text);
  const parts = [...others, ...(kept.length ? [`{ ${kept.map((specifier) => specifier.text).join(', ')} }`] : [])];
  if (!parts.length) return undefined;
  return `import ${parts.join(', ')} from ${source.text}${statement.text.trim().endsWith(';') ? ';' : ''}`;
}
