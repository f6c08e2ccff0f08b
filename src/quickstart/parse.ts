// Real parsers for the example languages (tree-sitter grammars compiled to WebAssembly, loaded once and lazily):
// error-tolerant, so documentation fragments parse too. Pure: text in, syntax tree out; nothing is ever run.
import type { Node as TsNode, Parser as TsParser } from '@vscode/tree-sitter-wasm';
import { languageFor, treeSitterRuntime, type AnyGrammar } from '../docs/extract/treesitter.ts';

export type SyntaxNode = TsNode;
export type Grammar = AnyGrammar;

const parsers = new Map<Grammar, TsParser>();

/** The syntax tree of `code` (the root node); fragments with errors still give a tree with ERROR nodes. */
export async function parseCode(grammar: Grammar, code: string): Promise<SyntaxNode> {
  // The one runtime and grammar cache of the process, shared with the docs extractors (see treeSitterRuntime).
  const [{ Parser }, language] = await Promise.all([treeSitterRuntime(), languageFor(grammar)]);
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(language);
    parsers.set(grammar, parser);
  }
  const tree = parser.parse(code);
  if (!tree) throw new Error(`tree-sitter could not parse ${grammar}`);
  return tree.rootNode;
}

/** Every descendant of `node` (itself included) of one of `types`, in source order. */
export function descendants(node: SyntaxNode, types: string | string[]): SyntaxNode[] {
  return node.descendantsOfType(types).filter((n): n is SyntaxNode => n !== null);
}

export function namedChildren(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((n): n is SyntaxNode => n !== null);
}
