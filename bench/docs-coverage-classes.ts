// Why npm API items stay unexplained: reads a bench:docs:coverage report (its JSON lists every unexplained item) and,
// per item, asks the TypeScript compiler what the package's declarations hold for it — the same program as
// src/docs/extract/declared-api.ts builds (entry points from package.json, @types/<name> where the report says so).
// Classes: a `/** */` comment on its declaration (direct, or through a re-export alias), documentation the checker
// finds elsewhere (inherited), a variable whose declared type is documented, members documented but not the item,
// none in the declarations but a doc comment right before its name in the package's JavaScript (a text check, so an
// upper bound: diagnostic only), or nothing at all. Counts per class, examples, and the packages that hold each.
//   node --import tsx bench/docs-coverage-classes.ts <home>/docs-coverage.json
import fs from 'node:fs';
import type TS from 'typescript';
import { loadCompiler, typeEntries } from '../src/docs/extract/dts.ts';
import { rawArtifact, typesArtifact } from './docs-artifacts.ts';

interface ReportRow { ecosystem: string; name: string; version?: string; api: { from: string; missing: string[] } }
const report = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as { packages: ReportRow[] };
const ROOT = '/pkg';
const ts = await loadCompiler();
const counts = new Map<string, number>();
const examples = new Map<string, string[]>();
const byPackage = new Map<string, number>();

function programOf(files: Map<string, string>): { checker: TS.TypeChecker; exported: Map<string, TS.Symbol> } {
  let manifest: Record<string, unknown> = {};
  try { manifest = JSON.parse(files.get('package.json') ?? '{}') as Record<string, unknown>; } catch { manifest = {}; }
  const entries = typeEntries({ files, manifest: manifest as Parameters<typeof typeEntries>[0]['manifest'] });
  const rel = (file: string) => file.slice(ROOT.length + 1);
  const host: TS.CompilerHost = {
    getSourceFile: (file, version) => { const text = files.get(rel(file)); return text === undefined ? undefined : ts.createSourceFile(file, text, version, true); },
    getDefaultLibFileName: () => `${ROOT}/lib.d.ts`, writeFile: () => undefined, getCurrentDirectory: () => ROOT,
    getCanonicalFileName: (f) => f, useCaseSensitiveFileNames: () => true, getNewLine: () => '\n',
    fileExists: (f) => f.startsWith(`${ROOT}/`) && files.has(rel(f)), readFile: (f) => (f.startsWith(`${ROOT}/`) ? files.get(rel(f)) : undefined),
    directoryExists: () => true, realpath: (f) => f,
  };
  const program = ts.createProgram({ rootNames: entries.map((e) => `${ROOT}/${e.file}`), host,
    options: { noLib: true, noEmit: true, skipLibCheck: true, types: [], module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler } });
  const checker = program.getTypeChecker();
  const exported = new Map<string, TS.Symbol>();
  for (const { file } of entries) {
    const sourceFile = program.getSourceFile(`${ROOT}/${file}`);
    const moduleSymbol = sourceFile ? checker.getSymbolAtLocation(sourceFile) : undefined;
    if (!sourceFile || !moduleSymbol) continue;
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) if (!exported.has(symbol.name)) exported.set(symbol.name, symbol);
    const assigned = moduleSymbol.exports?.get('export=' as TS.__String);
    if (assigned) for (const p of checker.getPropertiesOfType(checker.getTypeOfSymbolAtLocation(assigned, sourceFile))) if (!exported.has(p.name)) exported.set(p.name, p);
  }
  return { checker, exported };
}

/** The `/** … *\/` comments right before a declaration (its statement, for a variable). */
function docComments(node: TS.Node): string {
  const holder = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const text = holder.getSourceFile().text;
  return (ts.getLeadingCommentRanges(text, holder.getFullStart()) ?? []).filter((r) => text.startsWith('/**', r.pos)).map((r) => text.slice(r.pos, r.end)).join('');
}

function classify(name: string, symbol: TS.Symbol | undefined, checker: TS.TypeChecker, javascript: string): string {
  if (!symbol) return 'not an export the compiler finds (ambient module, or a name the declared list reads another way)';
  const alias = Boolean(symbol.flags & ts.SymbolFlags.Alias);
  const target = alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declarations = target.declarations ?? [];
  const kind = ts.SyntaxKind[declarations[0]?.kind ?? ts.SyntaxKind.Unknown];
  if (declarations.some((d) => docComments(d))) return `doc comment on its declaration (${alias ? 'through a re-export' : 'direct'}), ${kind}: short or tags only, or an extraction gap`;
  if (ts.displayPartsToString(target.getDocumentationComment(checker)).trim() || target.getJsDocTags(checker).length) return `documentation the checker finds elsewhere (inherited), ${kind}`;
  const variable = declarations.find(ts.isVariableDeclaration);
  if (variable?.type && ts.isTypeReferenceNode(variable.type)) {
    const typeSymbol = checker.getSymbolAtLocation(variable.type.typeName);
    const typeTarget = typeSymbol && typeSymbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(typeSymbol) : typeSymbol;
    if (typeTarget && ts.displayPartsToString(typeTarget.getDocumentationComment(checker)).trim()) return 'a variable whose declared type is documented';
  }
  const members = declarations.flatMap((d) => (ts.isInterfaceDeclaration(d) || ts.isClassDeclaration(d) ? [...d.members] as TS.Node[] : ts.isTypeAliasDeclaration(d) && ts.isTypeLiteralNode(d.type) ? [...d.type.members] : []));
  if (members.some((m) => docComments(m))) return `members documented, not the item, ${kind}`;
  const escaped = name.replace(/[$]/g, '\\$');
  if (new RegExp(`\\*/\\s*(?:export\\s+)?(?:async\\s+)?(?:function\\*?\\s+|class\\s+|const\\s+|let\\s+|var\\s+|exports\\.|module\\.exports\\.)?${escaped}\\b`).test(javascript)) return `a doc comment before its name in the JavaScript only, ${kind}`;
  return `no documentation in the artifact's declarations or JavaScript, ${kind}`;
}

for (const row of report.packages.filter((p) => p.ecosystem === 'npm' && p.api.missing.length && p.version)) {
  let files: Map<string, string>;
  let javascript: string;
  try {
    const own = await rawArtifact('npm', row.name, row.version!, undefined);
    javascript = [...own].filter(([p]) => /\.(c|m)?js$/.test(p)).map(([, t]) => t).join('\n');
    files = row.api.from.startsWith('@types') ? (await typesArtifact(row.name, row.version!))!.files : own;
  } catch (error) {
    console.error(`${row.name}: ${(error as Error).message}`);
    continue;
  }
  const { checker, exported } = programOf(files);
  for (const name of new Set(row.api.missing)) {
    const cls = classify(name, exported.get(name), checker, javascript);
    counts.set(cls, (counts.get(cls) ?? 0) + 1);
    const list = examples.get(cls) ?? [];
    if (list.length < 5) examples.set(cls, [...list, `${row.name}:${name}`]);
    const key = `${cls.split(',')[0]} | ${row.name}`;
    byPackage.set(key, (byPackage.get(key) ?? 0) + 1);
  }
}
console.log('| unexplained npm items | class | e.g. |\n|---|---|---|');
for (const [cls, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`| ${n} | ${cls} | ${examples.get(cls)!.join(' ')} |`);
console.log('\nlargest (class | package): count');
for (const [key, n] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${key}: ${n}`);
process.exit(0);
