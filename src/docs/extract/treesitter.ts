// Tree-sitter for the whole process: the one runtime initialisation and grammar cache that the API extractors (Rust,
// Python, Go) and the quickstart parsers (src/quickstart/parse.ts) share, as WASM from @vscode/tree-sitter-wasm; one
// parser per extractor grammar. Parsing reads text only; trees live in WASM memory and are freed after use.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';

export type SyntaxNode = TreeSitter.Node;
export type Grammar = 'rust' | 'python' | 'go';
/** Every grammar tooldex parses: the API extractors' and the quickstart example languages (src/quickstart/parse.ts). */
export type AnyGrammar = Grammar | 'javascript' | 'typescript' | 'tsx' | 'ruby';
export interface Parsers { parse<T>(grammar: Grammar, text: string, read: (root: SyntaxNode) => T): T }

const require = createRequire(import.meta.url);
let runtime: Promise<{ Parser: typeof TreeSitter.Parser; Language: typeof TreeSitter.Language; dir: string }> | undefined;
const languages = new Map<AnyGrammar, Promise<TreeSitter.Language>>();
const grammars = new Map<Grammar, Promise<TreeSitter.Parser>>();

/**
 * The tree-sitter runtime, initialised once per process (or thread) for every caller: `Parser.init` resets the
 * runtime's shared state, so a second call while another caller's grammars load (quickstart verification of a crate
 * and of an npm package at once) left those grammars unusable ("Incompatible language version 0", "memory access out
 * of bounds"; reproduced in test/unit/docs/tree-sitter-runtime.test.ts).
 */
export function treeSitterRuntime(): Promise<{ Parser: typeof TreeSitter.Parser; Language: typeof TreeSitter.Language; dir: string }> {
  if (!runtime) {
    runtime = (async () => {
      // The package is a UMD bundle; require() is how Node loads it from an ES module.
      const { Parser, Language } = require('@vscode/tree-sitter-wasm') as typeof TreeSitter;
      const dir = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
      await Parser.init({ locateFile: (file: string) => path.join(dir, file) });
      return { Parser, Language, dir };
    })();
    runtime.catch(() => { runtime = undefined; });
  }
  return runtime;
}

/** A grammar, compiled on first use (up to a second on a busy machine) and shared; a failed load is tried again next time. */
export function languageFor(grammar: AnyGrammar): Promise<TreeSitter.Language> {
  let language = languages.get(grammar);
  if (!language) {
    language = treeSitterRuntime().then(({ Language, dir }) => Language.load(path.join(dir, `tree-sitter-${grammar}.wasm`)));
    language.catch(() => languages.delete(grammar));
    languages.set(grammar, language);
  }
  return language;
}

/** One parser per extractor grammar. */
function parserFor(grammar: Grammar): Promise<TreeSitter.Parser> {
  let parser = grammars.get(grammar);
  if (!parser) {
    parser = Promise.all([treeSitterRuntime(), languageFor(grammar)]).then(([{ Parser }, language]) => {
      const created = new Parser();
      created.setLanguage(language);
      return created;
    });
    parser.catch(() => grammars.delete(grammar));
    grammars.set(grammar, parser);
  }
  return parser;
}

/** Parsers for the given grammars (all three by default), loaded on first use; later calls share them. */
export async function loadParsers(wanted: Grammar[] = ['rust', 'python', 'go']): Promise<Parsers> {
  const loaded = new Map<Grammar, TreeSitter.Parser>();
  for (const grammar of wanted) loaded.set(grammar, await parserFor(grammar));
  return {
    parse(grammar, text, read) {
      const parser = loaded.get(grammar);
      if (!parser) throw new Error(`the ${grammar} grammar was not loaded`);
      const tree = parser.parse(text);
      if (!tree) throw new Error(`tree-sitter could not parse this ${grammar} text`);
      try {
        return read(tree.rootNode);
      } finally {
        tree.delete();
      }
    },
  };
}

/** Named children, without the nulls the binding's types allow. */
export const namedChildren = (node: SyntaxNode): SyntaxNode[] => node.namedChildren.filter((c): c is SyntaxNode => c !== null);

/** 1-based line of a node, for passage URLs. */
export const lineOf = (node: SyntaxNode) => node.startPosition.row + 1;
