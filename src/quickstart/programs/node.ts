// JavaScript/TypeScript examples as programs: the package imported when the README omits it, the right module kind
// (.mjs / .cjs / .ts), the packages it imports beside this one, and results printed when the example prints nothing.
import { descendants, namedChildren, parseCode, type Grammar, type SyntaxNode } from '../parse.ts';
import { printCallbackResults } from './node-callbacks.ts';
import { showChecksNodeLacks, showNodeAssertions } from './assertions.ts';
import { filesNamed, SHOW_AT_EXIT, withWrittenFiles } from './node-files.ts';
import type { NpmExports } from '../imports.ts';
import { commonJsImports } from './cjs-imports.ts';
import { proseValues, sampleValues, type ParameterTypes } from '../npm-values.ts';

const GLOBALS = new Set(('console process Math JSON Object Array Promise setTimeout setInterval clearTimeout clearInterval Date String Number ' +
  'Boolean Symbol BigInt Buffer require module exports globalThis undefined NaN Infinity Error TypeError RangeError Map Set WeakMap WeakSet ' +
  'RegExp URL URLSearchParams fetch structuredClone queueMicrotask setImmediate TextEncoder TextDecoder AbortController Uint8Array ' +
  'ArrayBuffer Intl Reflect Proxy parseInt parseFloat isNaN encodeURIComponent decodeURIComponent __dirname __filename import this arguments ' +
  'crypto performance Blob Response Request Headers FormData EventTarget Event async await window document').split(' '));

export const camelName = (name: string) => name.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()).replace(/^\d/, '_$&');

const NODE_BUILTINS = /^(node:|(fs|path|os|http|https|url|util|events|stream|crypto|child_process|assert|buffer|zlib|readline|net|dns|tls|worker_threads|perf_hooks|timers|querystring|string_decoder|module|process|vm|v8)(\/|$))/;

/** Node's core modules an example may name bare (`assert.deepEqual(…)`), each its module's usual binding. */
const CORE_MODULES = new Set(['assert', 'fs', 'path', 'os', 'util', 'events', 'stream', 'crypto', 'zlib', 'http', 'https', 'url', 'child_process', 'readline', 'net', 'dns', 'buffer', 'querystring', 'vm', 'v8', 'timers', 'worker_threads']);

export interface NodeProgram {
  path: string; code: string; packages: string[]; language: 'javascript' | 'typescript';
  /** Values the example's prose introduces, given stand-ins up front (with a sample where a declared type gives one). */
  proseValues?: string[];
}

function declaredNames(root: SyntaxNode): Set<string> {
  const names = new Set<string>();
  const patterns = descendants(root, ['variable_declarator', 'function_declaration', 'class_declaration', 'import_specifier', 'import_clause',
    'namespace_import', 'formal_parameters', 'required_parameter', 'optional_parameter', 'catch_clause', 'arrow_function', 'for_in_statement',
    'type_alias_declaration', 'interface_declaration', 'enum_declaration', 'function_expression', 'generator_function_declaration']);
  for (const node of patterns) {
    const target = node.childForFieldName('name') ?? node.childForFieldName('parameter') ?? node.childForFieldName('left') ?? node.childForFieldName('alias');
    const scope = target ?? (node.type === 'import_clause' || node.type === 'namespace_import' || node.type === 'formal_parameters' ? node : undefined);
    if (node.type === 'arrow_function') {
      const param = node.childForFieldName('parameter') ?? node.childForFieldName('parameters');
      if (param) for (const id of descendants(param, ['identifier', 'shorthand_property_identifier_pattern'])) names.add(id.text);
      continue;
    }
    if (!scope) continue;
    for (const id of [scope, ...descendants(scope, ['identifier', 'shorthand_property_identifier_pattern', 'type_identifier'])]) {
      if (/^(identifier|shorthand_property_identifier_pattern|type_identifier)$/.test(id.type)) names.add(id.text);
    }
  }
  return names;
}

/** Identifiers the example reads but never declares, imports or gets from the platform. */
export function freeIdentifiers(root: SyntaxNode): string[] {
  const declared = declaredNames(root);
  const free = new Set<string>();
  for (const id of descendants(root, 'identifier')) {
    const parent = id.parent;
    if (!parent || GLOBALS.has(id.text) || declared.has(id.text)) continue;
    if (parent.type === 'member_expression' && parent.childForFieldName('property')?.equals(id)) continue;
    if (/^(pair|property_signature|labeled_statement|jsx_attribute)$/.test(parent.type) && parent.childForFieldName('key')?.equals(id)) continue;
    free.add(id.text);
  }
  return [...free];
}

/** The local names bound to the package by the program's imports and requires. */
function importedNames(root: SyntaxNode, name: string): string[] {
  const names: string[] = [];
  for (const statement of namedChildren(root)) {
    const text = statement.text;
    if (!text.includes(`'${name}'`) && !text.includes(`"${name}"`)) continue;
    const target = statement.type === 'import_statement' ? statement : statement.childForFieldName('declarator') ?? namedChildren(statement)[0]?.childForFieldName('name');
    if (!target) continue;
    for (const id of descendants(target, ['identifier', 'shorthand_property_identifier_pattern'])) if (!names.includes(id.text)) names.push(id.text);
  }
  return names.slice(0, 4);
}

export function importedSpecifiers(root: SyntaxNode): string[] {
  const specs = new Set<string>();
  for (const node of descendants(root, 'import_statement')) {
    const source = node.childForFieldName('source')?.text.slice(1, -1);
    if (source) specs.add(source);
  }
  for (const call of descendants(root, 'call_expression')) {
    const fn = call.childForFieldName('function')?.text;
    const arg = namedChildren(call.childForFieldName('arguments') ?? call)[0];
    if ((fn === 'require' || fn === 'import') && arg?.type === 'string') specs.add(arg.text.slice(1, -1));
  }
  return [...specs];
}

/** The npm package a bare import specifier names (`lodash/fp` → lodash, `@a/b/c` → @a/b); undefined for builtins/relative. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || NODE_BUILTINS.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const PRINTS = /\bconsole\.(log|info|table|dir|error|warn)\s*\(|\bprocess\.stdout\.write\(/;

/**
 * Wraps each top-level expression statement (not an assignment, not console.*) in console.log, or in `show` (a
 * function that prints later, node-files.ts).
 */
function printExpressions(root: SyntaxNode, code: string, show = 'console.log'): string {
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const statement of namedChildren(root)) {
    if (statement.type !== 'expression_statement') continue;
    const expression = namedChildren(statement)[0];
    if (!expression || /assignment|update_expression/.test(expression.type)) continue;
    // A bare string is a directive (`"use strict";`), never a value the example computes: printed, it passed for output.
    if (expression.type === 'string' || expression.type === 'template_string') continue;
    const callee = expression.type === 'call_expression' ? expression.childForFieldName('function')?.text ?? '' : '';
    if (/^(console\.|describe$|it$|test$)/.test(callee) || callee === show) continue;
    const text = expression.type === 'await_expression' || expression.type === 'sequence_expression' ? `(${expression.text})` : expression.text;
    edits.push({ start: expression.startIndex, end: expression.endIndex, text: `${show}(${text})` });
  }
  for (const name of resultBindings(root, show)) edits.push(name);
  edits.sort((a, b) => a.start - b.start);
  if (!edits.length) {
    // Only declarations: print the last top-level constant.
    const last = namedChildren(root).filter((n) => /lexical_declaration|variable_declaration/.test(n.type)).pop();
    const name = last && descendants(last, 'variable_declarator').pop()?.childForFieldName('name');
    return name?.type === 'identifier' ? `${code.replace(/\s+$/, '')}\n${show}(${name.text});\n` : code;
  }
  let out = code;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/**
 * Results the example computes and means the reader to see: a binding whose line shows its value in a comment
 * (`pi = z.dividedBy(113)        // '3.1415929204'`), or one a call or `new` computed that nothing reads afterwards
 * (`const csv = Papa.unparse(data);` ends papaparse's example). Each gets a `console.log` of its name after its
 * statement (the example's own prints stay where they are).
 */
/** A comment that shows a value (`// '255.9375'`, `//=> true`, `// [ '355', '113' ]`), not prose (`// keep going`). */
const VALUE_COMMENT = /^\/\/\s*(=>|→|->)?\s*(['"`[{(\d-]|(true|false|null|undefined|NaN|Infinity)\b)/;

function resultBindings(root: SyntaxNode, show = 'console.log'): Array<{ start: number; end: number; text: string }> {
  const statements = namedChildren(root);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  statements.forEach((statement, i) => {
    let name: SyntaxNode | null | undefined;
    let value: SyntaxNode | null | undefined;
    if (/^(lexical_declaration|variable_declaration)$/.test(statement.type)) {
      const declarators = descendants(statement, 'variable_declarator').filter((d) => d.parent?.equals(statement));
      if (declarators.length !== 1) return;
      name = declarators[0]!.childForFieldName('name');
      value = declarators[0]!.childForFieldName('value');
    } else if (statement.type === 'expression_statement' && namedChildren(statement)[0]?.type === 'assignment_expression') {
      name = namedChildren(statement)[0]!.childForFieldName('left');
      value = namedChildren(statement)[0]!.childForFieldName('right');
    }
    if (name?.type !== 'identifier' || !value) return;
    // Without a semicolon the line's comment is the statement's own child; with one, the next sibling on that row.
    const next = statements[i + 1];
    const comment = namedChildren(statement).find((c) => c.type === 'comment')
      ?? (next?.type === 'comment' && next.startPosition.row === statement.endPosition.row ? next : undefined);
    const shownInComment = Boolean(comment && VALUE_COMMENT.test(comment.text));
    const computed = /^(call_expression|new_expression|await_expression)$/.test(value.type) && !/\brequire\s*\(/.test(value.text);
    const readLater = statements.slice(i + 1).some((later) => descendants(later, 'identifier').some((id) => id.text === name!.text));
    if (shownInComment || (computed && !readLater)) edits.push({ start: statement.endIndex, end: statement.endIndex, text: `\n${show}(${name.text});` });
  });
  return edits;
}

/** READMEs often show both spellings (`import Ajv from "ajv"` and `const Ajv = require("ajv")`): keep the import. */
function dropDuplicateRequires(root: SyntaxNode, code: string): string {
  const imported = new Set<string>();
  for (const statement of namedChildren(root)) {
    if (statement.type === 'import_statement') for (const id of descendants(statement, 'identifier')) imported.add(id.text);
  }
  if (!imported.size) return code;
  let out = code;
  for (const statement of namedChildren(root).reverse()) {
    if (!/^(lexical_declaration|variable_declaration)$/.test(statement.type) || !/\brequire\s*\(/.test(statement.text)) continue;
    // `const { glob, Glob } = require('glob')` binds shorthand properties, `const x = require('x')` an identifier.
    const names = descendants(statement.childForFieldName('declarator') ?? statement, ['identifier', 'shorthand_property_identifier_pattern']).map((n) => n.text).filter((n) => n !== 'require');
    if (names.length && names.every((n) => imported.has(n))) out = out.slice(0, statement.startIndex) + out.slice(statement.endIndex);
  }
  return out;
}

/** READMEs show alternatives one after another (`const x = a()` … `const x = await b()`): the later ones assign. */
function reassignRedeclared(root: SyntaxNode, code: string): string {
  const seen = new Map<string, SyntaxNode>();
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const statement of namedChildren(root)) {
    if (statement.type !== 'lexical_declaration' && statement.type !== 'variable_declaration') continue;
    const declarators = namedChildren(statement).filter((n) => n.type === 'variable_declarator');
    const name = declarators.length === 1 ? declarators[0]!.childForFieldName('name') : undefined;
    if (!name || name.type !== 'identifier') continue;
    const first = seen.get(name.text);
    if (!first) { seen.set(name.text, statement); continue; }
    const keyword = statement.children[0];
    if (keyword) edits.push({ start: keyword.startIndex, end: name.startIndex, text: '' });
    const firstKeyword = first.children[0];
    if (firstKeyword?.text === 'const') edits.push({ start: firstKeyword.startIndex, end: firstKeyword.endIndex, text: 'let' });
  }
  let out = code;
  for (const edit of [...new Map(edits.map((e) => [e.start, e])).values()].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/**
 * A name the example assigns at the top level before anything reads it (`z = new Decimal(355)`, as in a REPL) is the
 * example's own variable: declared where it is first assigned. Left undeclared it would be taken for one of the
 * package's exports (`import { z, Decimal }`), and an ES module throws on the bare assignment.
 */
function declareFirstAssigned(root: SyntaxNode, code: string): string {
  const declared = declaredNames(root);
  const firstUse = new Map<string, number>();
  for (const id of descendants(root, 'identifier')) if (!firstUse.has(id.text)) firstUse.set(id.text, id.startIndex);
  const starts: number[] = [];
  for (const statement of namedChildren(root)) {
    const assignment = statement.type === 'expression_statement' ? namedChildren(statement)[0] : undefined;
    const left = assignment?.type === 'assignment_expression' ? assignment.childForFieldName('left') : undefined;
    if (!left || left.type !== 'identifier' || declared.has(left.text) || GLOBALS.has(left.text)) continue;
    // First seen here, and the right side does not read it (`x = x + 1` reads an x from elsewhere).
    if (firstUse.get(left.text) !== left.startIndex) continue;
    if (descendants(assignment!.childForFieldName('right')!, 'identifier').some((id) => id.text === left.text)) continue;
    starts.push(statement.startIndex);
    declared.add(left.text);
  }
  let out = code;
  for (const start of starts.reverse()) out = `${out.slice(0, start)}let ${out.slice(start)}`;
  return out;
}

/** Names that say "a function of yours goes here" even where the example only passes them on (`{ cb }`). */
export const CALLBACK_NAME = /^(cb|callback|fn|func|handler|handle|listener|on[A-Z_]\w*|\w*(Callback|Handler|Listener|Fn))$/;

export interface ImportStyle { kind: 'named' | 'default' | 'namespace'; printBindings?: boolean }

/**
 * Names the package's own examples bind it to (`const isNumber = require('is-number')`, `import { z } from 'zod'`),
 * with the statement that binds each: an example that uses such a name without importing gets that same statement.
 */
export async function packageBindings(codes: string[], name: string): Promise<Record<string, string>> {
  const bindings: Record<string, string> = {};
  for (const code of codes) {
    if (!code.includes(name)) continue;
    const root = await parseCode(/:\s*\w+|\binterface\b/.test(code) ? 'typescript' : 'javascript', code);
    for (const statement of namedChildren(root)) {
      const isImport = statement.type === 'import_statement' && statement.childForFieldName('source')?.text.slice(1, -1) === name;
      const isRequire = /^(lexical_declaration|variable_declaration)$/.test(statement.type) && new RegExp(`require\\(\\s*['"]${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"]\\s*\\)`).test(statement.text);
      if (!isImport && !isRequire) continue;
      const scope = isImport ? statement : statement.childForFieldName('declarator') ?? namedChildren(statement)[0];
      const target = isImport ? statement : scope?.childForFieldName('name');
      if (!target) continue;
      for (const id of [target, ...descendants(target, ['identifier', 'shorthand_property_identifier_pattern'])]) {
        if (/^(identifier|shorthand_property_identifier_pattern)$/.test(id.type) && !bindings[id.text]) bindings[id.text] = statement.text.trim();
      }
    }
  }
  return bindings;
}

/** What is known of the package before the run: its real exports (the probe) and declared parameter types. */
export interface NpmFacts { exports?: NpmExports; paramTypes?: ParameterTypes; paramNames?: ParameterTypes; dataBlocks?: Array<{ language: string; code: string }> }

/**
 * Free names the example only uses as values (an argument, an operand: `Papa.parse(csvString)`), never calls or
 * reads members of: values the prose introduces. A name called or dereferenced is the package or a helper (those are
 * imported, or stood in for once a run says they are missing).
 */
function usedOnlyAsValues(root: SyntaxNode, names: string[]): string[] {
  const asCallee = new Set<string>();
  for (const id of descendants(root, 'identifier')) {
    const parent = id.parent;
    if (!parent || !names.includes(id.text)) continue;
    if ((parent.type === 'call_expression' || parent.type === 'new_expression') && (parent.childForFieldName('function') ?? parent.childForFieldName('constructor'))?.equals(id)) asCallee.add(id.text);
    if (parent.type === 'member_expression' && parent.childForFieldName('object')?.equals(id)) asCallee.add(id.text);
  }
  return names.filter((n) => !asCallee.has(n));
}

export async function nodeProgram(code: string, language: string, name: string, moduleType: string | undefined, style: ImportStyle = { kind: 'named' }, bindings: Record<string, string> = {}, stubs: string[] = [], facts: NpmFacts = {}): Promise<NodeProgram> {
  const jsx = /^(jsx|tsx)$/i.test(language) || /<\/[A-Za-z]|<[A-Za-z][\w.]*(\s[^<>]*)?\/>/.test(code);
  // TypeScript by its fence, its plain annotations, or the parsers: a block JavaScript cannot parse and TypeScript can
  // (`const options: Partial<Config> = …`) would be a SyntaxError run as JavaScript ("Unexpected token ':'").
  const typescript = /^(ts|typescript|tsx)$/i.test(language) || /:\s*(string|number|boolean)\b|\binterface\s+\w+\s*\{|\btype\s+\w+\s*=/.test(code)
    || (!jsx && (await parseCode('javascript', code)).hasError && !(await parseCode('typescript', code)).hasError);
  const grammar: Grammar = jsx && typescript ? 'tsx' : typescript ? 'typescript' : 'javascript';
  let program = dropDuplicateRequires(await parseCode(grammar, code), code).replace(/\s+$/, '') + '\n';
  program = reassignRedeclared(await parseCode(grammar, program), program);
  program = declareFirstAssigned(await parseCode(grammar, program), program);
  let root = await parseCode(grammar, program);
  const specifiers = importedSpecifiers(root);
  const importsPackage = specifiers.some((s) => packageOf(s) === name);
  const usesRequire = /\brequire\s*\(/.test(code) && !/^\s*(import|export)\s/m.test(code);
  // A Node core module the example names without importing it (`assert.deepEqual`, `fs.readFileSync`) comes from Node,
  // not from the package: importing it from the package is "Named export 'fs' not found".
  // Not when the package is itself named so (npm's `events`, `buffer`) or its docs bind it to that name.
  const core = freeIdentifiers(root).filter((id) => CORE_MODULES.has(id) && !stubs.includes(id) && !bindings[id] && id !== camelName(name));
  if (core.length) {
    const esmCode = /^\s*(import|export)\s/m.test(program) || /\bawait\b/.test(program) || !/\brequire\s*\(/.test(program);
    program = `${core.map((m) => (esmCode ? `import ${m} from 'node:${m}';` : `const ${m} = require('node:${m}');`)).join('\n')}\n${program}`;
    root = await parseCode(grammar, program);
  }
  let free = freeIdentifiers(root).filter((id) => /^[A-Za-z_$][\w$]*$/.test(id) && !stubs.includes(id));
  // Values the prose introduces (neither the program, Node nor the package binds them): stand-ins before the first
  // run, with a sample of the declared parameter type they are passed as (npm-values.ts).
  const prose = facts.exports ? usedOnlyAsValues(root, proseValues(free, facts.exports, (id) => Boolean(bindings[id]) || id.toLowerCase() === camelName(name).toLowerCase())) : [];
  const samples = prose.length ? await sampleValues(program, grammar, prose, facts.paramTypes ?? {}, facts.dataBlocks, facts.paramNames) : {};
  if (prose.length) {
    stubs = [...stubs, ...prose];
    free = free.filter((id) => !prose.includes(id));
  }
  const fromDocs = [...new Set(free.map((id) => bindings[id]).filter((line): line is string => Boolean(line)))];
  // The example imports the package but uses more of its exports than it imports (imported in another block):
  // those the probe saw as named exports are imported too.
  const moreExports = importsPackage && facts.exports?.esm ? free.filter((id) => facts.exports!.esm!.named.includes(id)) : [];
  if (moreExports.length) {
    program = `${usesRequire ? `const { ${moreExports.join(', ')} } = require('${name}');` : `import { ${moreExports.join(', ')} } from '${name}';`}\n${program}`;
    root = await parseCode(grammar, program);
  }
  if (!importsPackage && fromDocs.length && style.kind === 'named') {
    // The README's own import statement for the names this example uses.
    const lines = fromDocs.map((line) => (usesRequire || !/\brequire\(/.test(line) ? line : line.replace(/^(?:const|let|var)\s+(.+?)\s*=\s*require\((['"][^'"]+['"])\);?$/, 'import $1 from $2;').replace(/import \{\s*([^}]+?)\s*\}\s+from/, (_, names: string) => `import { ${names.replace(/\s*:\s*/g, ' as ')} } from`)));
    program = `${lines.join('\n')}\n\n${program}`;
    root = await parseCode(grammar, program);
  } else if (!importsPackage) {
    const base = camelName(name);
    const asDefault = free.filter((id) => id.toLowerCase() === base.toLowerCase() || (id === free[0] && free.length === 1 && style.kind !== 'named'));
    const named = free.filter((id) => !asDefault.includes(id) && !/^[A-Z_]+$/.test(id));
    const defaultName = asDefault[0] ?? (named.length ? undefined : base);
    let line: string;
    if (usesRequire) {
      line = named.length && !defaultName ? `const { ${named.join(', ')} } = require('${name}');` : `const ${defaultName ?? base} = require('${name}');${named.length ? `\nconst { ${named.join(', ')} } = ${defaultName ?? base};` : ''}`;
    } else if (style.kind === 'namespace' || (moduleType === 'module' && style.kind !== 'default' && defaultName && !named.length)) {
      line = `import * as ${defaultName ?? base} from '${name}';`;
    } else if (style.kind === 'default' && named.length) {
      line = `import ${defaultName ?? base} from '${name}';\nconst { ${named.join(', ')} } = ${defaultName ?? base};`;
    } else {
      line = `import ${[defaultName, named.length ? `{ ${named.join(', ')} }` : ''].filter(Boolean).join(', ')} from '${name}';`;
    }
    program = `${line}\n\n${program}`;
    root = await parseCode(grammar, program);
  }
  // A Node-style callback that shows none of the results it is given (`function (err, results) { /* … */ }`): they
  // are what the example computes, so it prints them (node-callbacks.ts).
  const shown = await printCallbackResults(program, grammar);
  if (shown !== program) {
    program = shown;
    root = await parseCode(grammar, program);
  }
  // Prints nothing: its values are printed; when it names files, those it wrote are printed at exit instead, and
  // its values only when it wrote none (node-files.ts).
  const printsAlready = PRINTS.test(program);
  const written = printsAlready ? [] : await filesNamed(program, grammar);
  if (!printsAlready) {
    // Checks (`assert.equal(expected, f(x))`, `expect(x).toBe(y)`) print the value they check (assertions.ts).
    const show = written.length ? SHOW_AT_EXIT : 'console.log';
    // The checked values are what it shows then: its other calls' values (`undefined` of `addMapping(…)`) are not.
    const shownChecks = await showNodeAssertions(program, grammar, name, show);
    program = shownChecks !== program ? shownChecks : printExpressions(root, program, show);
  }
  else if (style.printBindings) {
    // It printed nothing (its prints sit behind conditions): show the last value it computed (`valid` after
    // `if (!valid) console.log(errors)`), else what the package gave it.
    const parsed = await parseCode(grammar, program);
    // A computed value, not an input the example wrote out itself (`const files = ['a.png', …]`).
    const computed = (n: SyntaxNode) => !/^(array|object|string|number|template_string|true|false|null)$/.test(descendants(n, 'variable_declarator').pop()?.childForFieldName('value')?.type ?? 'array');
    const last = namedChildren(parsed).filter((n) => /lexical_declaration|variable_declaration/.test(n.type) && !/\brequire\s*\(/.test(n.text) && computed(n)).pop();
    const value = last && descendants(last, 'variable_declarator').pop()?.childForFieldName('name');
    // Never the package's own bindings: a printed module or function is not a result.
    const names = value?.type === 'identifier' ? [value.text] : [];
    if (names.length) program = `${program.replace(/\s+$/, '')}\nconsole.log(${names.join(', ')});\n`;
  }
  // A check through Node's assert with a function Node's module lacks (tape's `assert.notOk`) throws before the
  // example's prints and its other checks: it shows the value it checks instead (assertions.ts). After the rewrite of
  // a silent example's checks above, which leaves such a check as it is.
  program = await showChecksNodeLacks(program, grammar, name, printsAlready || !written.length ? 'console.log' : SHOW_AT_EXIT);
  if (stubs.length) {
    // A stand-in must not replace the package: the program still has to call into it through an import of its own.
    const body = program.split('\n').filter((l) => !l.includes(`'${name}'`) && !l.includes(`"${name}"`)).join('\n');
    const uses = importedNames(await parseCode(grammar, program), name)
      .filter((n) => !stubs.includes(n) && new RegExp(`(^|[^\\w$.])${n.replace(/\$/g, '\\$')}(?![\\w$])`).test(body));
    if (!uses.length) throw new Error(`stand-ins for ${stubs.join(', ')} would leave no use of ${name}`);
    const params = typescript ? '...args: any[]' : '...args';
    // A helper that is called becomes a function that prints what it is given; a value (an option the reader fills
    // in) is left undefined, which is what leaving the option out means.
    const called = (stub: string) => CALLBACK_NAME.test(stub) || new RegExp(`(^|[^\\w$.])${stub.replace(/\$/g, '\\$')}\\s*\\(`).test(body);
    const sampled = stubs.filter((stub) => !called(stub) && samples[stub]);
    const lines = stubs.filter((stub) => !sampled.includes(stub)).map((stub) => (called(stub) ? `function ${stub}(${params}) { console.log(${JSON.stringify(stub)}, ...args); return args[0]; }`
      : `var ${stub}${typescript ? ': any' : ''}; // left to the reader`));
    // A sampled value is assigned before the example reads it (a `var` below would be hoisted undefined).
    if (sampled.length) program = `// Values the example's text introduces: a sample of the type declared for the parameter each is passed as.\n${sampled.map((stub) => `var ${stub}${typescript ? ': any' : ''} = ${samples[stub]};`).join('\n')}\n\n${program}`;
    if (lines.length) program = `${program.replace(/\s+$/, '')}\n\n// Stand-ins for what the example leaves to the reader (a called helper prints what it is given).\n${lines.join('\n')}\n`;
  }
  const packages = [...new Set(importedSpecifiers(await parseCode(grammar, program)).map(packageOf).filter((p): p is string => Boolean(p) && p !== name))];
  // The module kind follows the code, then the package: an ES-only package (`"type": "module"`) is imported, so a
  // README's `require` of it becomes an import too, as it does when the code has imports or top-level await.
  const requiresPackage = usesRequire && new RegExp(`\\brequire\\(\\s*['"]${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"]`).test(program);
  const esm = /^\s*(import|export)\s/m.test(program) || /\bawait\b/.test(program) || (moduleType === 'module' && requiresPackage);
  // ES module (imports or top-level await) but CommonJS requires: the requires become imports.
  if (esm) program = program.replace(/^(?:const|let|var)\s+(\{[^}]*\}|[A-Za-z_$][\w$]*)\s*=\s*require\(\s*(['"][^'"]+['"])\s*\);?[ \t]*$/gm, (_, names: string, from: string) => `import ${names.replace(/\s*:\s*/g, ' as ')} from ${from};`);
  // A CommonJS package's names taken from where Node's loader really puts them (cjs-imports.ts), before any run.
  if (esm) program = await commonJsImports(program, grammar, name, facts.exports);
  // Requires left in an ES module (`require('a').b`, a require inside a function) would throw "require is not
  // defined in ES module scope": Node's own createRequire gives the module the CommonJS require it was written for.
  if (esm && await callsRequire(program, grammar)) {
    program = `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${program}`;
  }
  // A JSON file imported as an ES module needs the JSON import attribute in Node ("needs an import attribute of type
  // json"); a bundler's README imports it bare (`import schema from './schema.json'`).
  if (esm) program = await withJsonAttributes(program, grammar);
  if (written.length) program = withWrittenFiles(program, written, esm || typescript);
  // JSX needs a transform: tsx gives it to .tsx files, so JavaScript with JSX runs as .tsx too.
  const path = jsx ? 'index.tsx' : typescript ? 'index.mts' : usesRequire && !esm ? 'index.cjs' : 'index.mjs';
  return { path, code: program, packages, language: typescript ? 'typescript' : 'javascript', ...(prose.length ? { proseValues: prose } : {}) };
}

/** Whether the program calls a `require` it does not declare itself. */
async function callsRequire(code: string, grammar: Grammar): Promise<boolean> {
  const root = await parseCode(grammar, code);
  const declared = descendants(root, ['variable_declarator', 'function_declaration']).some((d) => d.childForFieldName('name')?.text === 'require');
  return !declared && descendants(root, 'call_expression').some((c) => c.childForFieldName('function')?.text === 'require');
}

/** Static imports of a `.json` module given the `with { type: 'json' }` attribute Node requires, where they lack one. */
export async function withJsonAttributes(code: string, grammar: Grammar): Promise<string> {
  const root = await parseCode(grammar, code);
  const ends: number[] = [];
  for (const statement of descendants(root, 'import_statement')) {
    const source = statement.childForFieldName('source');
    if (!source || !/\.json$/i.test(source.text.slice(1, -1))) continue;
    // Whatever follows the specifier (`with {…}`, `assert {…}`) is an attribute clause already.
    const rest = code.slice(source.endIndex, statement.endIndex).replace(/[\s;]/g, '');
    if (!rest) ends.push(source.endIndex);
  }
  let out = code;
  for (const end of ends.sort((a, b) => b - a)) out = `${out.slice(0, end)} with { type: 'json' }${out.slice(end)}`;
  return out;
}
