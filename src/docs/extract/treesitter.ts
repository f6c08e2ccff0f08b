// Tree-sitter grammars for the API extractors (Rust, Python, Go), as WASM from @vscode/tree-sitter-wasm: loaded once
// per process, one parser per grammar. Parsing reads text only; trees live in WASM memory and are freed after use.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';

export type SyntaxNode = TreeSitter.Node;
export type Grammar = 'rust' | 'python' | 'go';
export interface Parsers { parse<T>(grammar: Grammar, text: string, read: (root: SyntaxNode) => T): T }

const require = createRequire(import.meta.url);
let runtime: Promise<{ Parser: typeof TreeSitter.Parser; Language: typeof TreeSitter.Language; dir: string }> | undefined;
const grammars = new Map<Grammar, Promise<TreeSitter.Parser>>();

/** The runtime once, then each grammar on first use (compiling a grammar's WASM costs up to a second on a busy machine). */
function parserFor(grammar: Grammar): Promise<TreeSitter.Parser> {
  runtime ??= (async () => {
    // The package is a UMD bundle; require() is how Node loads it from an ES module.
    const { Parser, Language } = require('@vscode/tree-sitter-wasm') as typeof TreeSitter;
    const dir = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
    await Parser.init({ locateFile: (file: string) => path.join(dir, file) });
    return { Parser, Language, dir };
  })();
  let parser = grammars.get(grammar);
  if (!parser) {
    parser = runtime.then(async ({ Parser, Language, dir }) => {
      const created = new Parser();
      created.setLanguage(await Language.load(path.join(dir, `tree-sitter-${grammar}.wasm`)));
      return created;
    });
    parser.catch(() => { grammars.delete(grammar); runtime = undefined; });
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
