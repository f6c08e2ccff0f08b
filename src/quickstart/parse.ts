// Real parsers for the example languages (tree-sitter grammars compiled to WebAssembly, loaded once and lazily):
// error-tolerant, so documentation fragments parse too. Pure: text in, syntax tree out; nothing is ever run.
import type { Node as TsNode, Parser as TsParser, Tree as TsTree } from '@vscode/tree-sitter-wasm';
import { languageFor, treeSitterRuntime, type AnyGrammar } from '../docs/extract/treesitter.ts';

export type SyntaxNode = TsNode;
export type Grammar = AnyGrammar;

const parsers = new Map<Grammar, TsParser>();

/**
 * A tree lives in WebAssembly memory until deleted, and that memory never goes back: parsing every example and every
 * Go file a sandbox call sends without freeing grew it until tree-sitter aborted (`ts_malloc` → "Aborted()"), which
 * leaves the runtime unusable for the whole process (seen after ~75 Go packages of the quickstart bench). A tree whose
 * nodes nobody holds any more is freed by this registry (a node keeps its tree reachable); callers that keep no node
 * use withSyntaxTree, which frees it at once.
 */
const trees = new FinalizationRegistry<number>((address) => {
  // Tree.delete reads only the address: free it without the (collected) wrapper.
  (TreeClass!.prototype.delete as (this: { 0: number }) => void).call({ 0: address });
  freed++;
});
let TreeClass: { prototype: { delete(): void } } | undefined;
let parsed = 0;
let freed = 0;

/** Trees parsed by this module and not yet freed (for tests and memory reports). */
export function liveSyntaxTrees(): number {
  return parsed - freed;
}

async function parseTree(grammar: Grammar, code: string): Promise<TsTree> {
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
  TreeClass ??= Object.getPrototypeOf(tree).constructor as typeof TreeClass;
  parsed++;
  return tree;
}

/** The syntax tree of `code` (the root node); fragments with errors still give a tree with ERROR nodes. */
export async function parseCode(grammar: Grammar, code: string): Promise<SyntaxNode> {
  const tree = await parseTree(grammar, code);
  trees.register(tree, (tree as unknown as { 0: number })[0], tree);
  return tree.rootNode;
}

/** `read` over the syntax tree of `code`, the tree freed as soon as it returns: for callers that keep no node. */
export async function withSyntaxTree<T>(grammar: Grammar, code: string, read: (root: SyntaxNode) => T): Promise<T> {
  const tree = await parseTree(grammar, code);
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
    freed++;
  }
}

/**
 * Whether `code` parses without an error node in `grammar`, the tree freed at once: for the many checks that keep no
 * node (`(await parseCode(g, code)).hasError` leaves its tree to the collector).
 */
export function parsesCleanly(grammar: Grammar, code: string): Promise<boolean> {
  return withSyntaxTree(grammar, code, (root) => !root.hasError);
}

/** Every descendant of `node` (itself included) of one of `types`, in source order. */
export function descendants(node: SyntaxNode, types: string | string[]): SyntaxNode[] {
  return node.descendantsOfType(types).filter((n): n is SyntaxNode => n !== null);
}

export function namedChildren(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((n): n is SyntaxNode => n !== null);
}
