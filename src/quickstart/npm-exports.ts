// The names an npm package's entry point exports, read from its declarations by the TypeScript compiler: its own
// `.d.ts` files, else DefinitelyTyped's, which the artifact keeps under `@types/<name>/`. An example that calls one of
// these (`DateTime.fromISO(…)` in luxon's JSDoc, where no import line is written) uses the package, though it never
// names it. The checker also says which of them are types only (an interface, a type alias, `export type`): such a
// name has no runtime export, so a value import line naming it (`import { InferType } from 'yup'`) fails in
// JavaScript, though the TypeScript program it came from ran (the transform erased it). imports.ts drops them.
// One compiler pass per package version (the declarations of a published version never change), kept in a bounded
// cache keyed by the requested name@version and a hash of the declarations: a package is verified again and again
// (every sweep, every new version of a dependency), and the pass costs a second or more on a loaded machine. Callers
// pass the type-only set on explicitly (verify.ts → imports.ts); nothing looks it up by name.
import crypto from 'node:crypto';
import type TS from 'typescript';
import { textOf, type ArchiveFile } from '../docs/archive.ts';
import { declarationProgram, npmTypeEntries } from '../docs/extract/declared-api.ts';

/** Where a DefinitelyTyped package sits in an artifact's files, and what a declaration file is. */
export const TYPES_DIR = /^@types\/[^/]+\//;
export const DECLARATION = /\.d\.(ts|mts|cts)$/;
/** Package versions whose declared exports are kept (each a few KB of names). */
export const DECLARED_CACHE = 64;

/** The main entry's exported names, and which of them are types only (no value: nothing to import at run time). */
export interface DeclaredExports { names: string[]; typeOnly: string[] }

const cache = new Map<string, Promise<DeclaredExports>>();
/** Compiler passes run (for tests: a second verification of a version runs none). */
export let declaredPasses = 0;

/** What a caller asked for: the registry name and version it fetched (not what the tarball's package.json claims). */
export interface RequestedVersion { name: string; version: string }

/** The main entry's exported names (not `default`, not `_private`): what an example may call the package by. */
export async function npmDeclaredExports(files: ArchiveFile[], requested?: RequestedVersion): Promise<string[]> {
  return (await npmDeclaredExportKinds(files, requested)).names;
}

/**
 * The declared exports of the package in `files`, read once per version. The cache key is the identity the caller
 * requested (registry name and version) plus a hash of the declarations, never the tarball's own package.json: npm does
 * not check that a tarball's manifest names the package it was published as, so package `evil` may ship
 * {"name":"yup","version":"1.7.1"}; keyed by that claim, its declarations would answer for yup for every tenant.
 */
export function npmDeclaredExportKinds(files: ArchiveFile[], requested?: RequestedVersion): Promise<DeclaredExports> {
  const key = cacheKey(files, requested);
  let found = cache.get(key);
  if (found) {
    cache.delete(key); // most recently used last
    cache.set(key, found);
    return found;
  }
  found = readDeclaredExports(files);
  cache.set(key, found);
  for (const old of cache.keys()) {
    if (cache.size <= DECLARED_CACHE) break;
    cache.delete(old);
  }
  return found;
}

/**
 * `name@version#sha256` of what was requested and of the files the compiler reads (declarations and package.json
 * files, which say where the entry is): the same content under another name or a changed content under the same name
 * is another entry. Hashing is cheap next to the compiler pass it saves.
 */
function cacheKey(files: ArchiveFile[], requested?: RequestedVersion): string {
  const hash = crypto.createHash('sha256');
  for (const file of files) if (DECLARATION.test(file.path) || /(^|\/)package\.json$/.test(file.path)) hash.update(`${file.path}\0${textOf(file)}\0`);
  return `${requested ? `${requested.name}@${requested.version}` : ''}#${hash.digest('hex')}`;
}

/**
 * The package's declaration files (and package.json files) split into its own tree and the DefinitelyTyped tree
 * under `@types/<name>/` (paths there made relative to that package), so each can be read as a program of its own.
 */
export function declarationTrees(files: ArchiveFile[]): { own: Map<string, string>; definitelyTyped: Map<string, string> } {
  const own = new Map<string, string>();
  const definitelyTyped = new Map<string, string>();
  for (const file of files) {
    if (!DECLARATION.test(file.path) && !/(^|\/)package\.json$/.test(file.path)) continue;
    if (TYPES_DIR.test(file.path)) definitelyTyped.set(file.path.replace(TYPES_DIR, ''), textOf(file));
    else own.set(file.path, textOf(file));
  }
  return { own, definitelyTyped };
}

async function readDeclaredExports(files: ArchiveFile[]): Promise<DeclaredExports> {
  declaredPasses++;
  const { own, definitelyTyped } = declarationTrees(files);
  for (const tree of [own, definitelyTyped]) {
    if (![...tree.keys()].some((p) => DECLARATION.test(p))) continue;
    try {
      const read = await mainEntryExports(tree);
      if (read.names.length) return read;
    } catch {
      // Declarations the compiler cannot read: the docs' own import lines still say what uses the package.
    }
  }
  return { names: [], typeOnly: [] };
}

/**
 * The main entry's exports with the checker: a name is type-only when what it finally stands for (through aliases and
 * re-exports) has no value meaning (SymbolFlags.Value: no variable, function, class, enum or namespace with values), or
 * when it is exported with `export type`. A name the checker cannot resolve counts as a value (never dropped on doubt).
 * Only the main entry (`.`): a sub-path's names are imported from that path, not from the package.
 */
async function mainEntryExports(files: Map<string, string>): Promise<DeclaredExports> {
  const entry = npmTypeEntries(files).find((e) => e.subpath === '.');
  if (!entry) return { names: [], typeOnly: [] };
  const { ts, program, sourceFile: entrySource } = await declarationProgram(files, [entry.file]);
  const checker = program.getTypeChecker();
  const sourceFile = entrySource(entry.file);
  const moduleSymbol = sourceFile ? checker.getSymbolAtLocation(sourceFile) : undefined;
  if (!sourceFile || !moduleSymbol) return { names: [], typeOnly: [] };
  const names = new Set<string>();
  const typeOnly = new Set<string>();
  const exported = checker.getExportsOfModule(moduleSymbol);
  const keep = (name: string) => !name.startsWith('_') && name !== 'export=' && name !== 'default';
  for (const symbol of exported) {
    if (!keep(symbol.name)) continue;
    names.add(symbol.name);
    if (isTypeOnly(ts, checker, symbol)) typeOnly.add(symbol.name);
  }
  // `export = _` (lodash, express): the value's properties are the API (`_.debounce`), values all.
  const assigned = moduleSymbol.exports?.get('export=' as TS.__String);
  if (assigned) {
    const type = checker.getTypeOfSymbolAtLocation(assigned, sourceFile);
    for (const property of checker.getPropertiesOfType(type)) {
      if (!keep(property.name)) continue;
      names.add(property.name);
      typeOnly.delete(property.name); // a namespace's type of the same name is merged with a real value
    }
  }
  return { names: [...names], typeOnly: [...typeOnly] };
}

function isTypeOnly(ts: typeof TS, checker: TS.TypeChecker, symbol: TS.Symbol): boolean {
  // `export type { X }`, `export { type X }` or `import type` anywhere along the alias chain: no runtime export,
  // whatever X is (at most 32 hops: a bound on malformed declarations).
  let target = symbol;
  for (let hop = 0; hop < 32 && target.flags & ts.SymbolFlags.Alias; hop++) {
    if (target.declarations?.some((declaration) => ts.isTypeOnlyImportOrExportDeclaration(declaration))) return true;
    const next = checker.getImmediateAliasedSymbol(target);
    if (!next || next === target) return false; // unresolved: doubt keeps the name
    target = next;
  }
  // An unresolved alias is the checker's unknown symbol (a property: a value), so doubt keeps the name.
  return (target.flags & ts.SymbolFlags.Alias) === 0 && (target.flags & ts.SymbolFlags.Value) === 0;
}
