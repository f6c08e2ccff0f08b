// Real parsers for the example languages (tree-sitter grammars compiled to WebAssembly, loaded once and lazily):
// error-tolerant, so documentation fragments parse too. Pure: text in, syntax tree out; nothing is ever run.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import treeSitter from '@vscode/tree-sitter-wasm';
import type { Language as TsLanguage, Node as TsNode, Parser as TsParser } from '@vscode/tree-sitter-wasm';

export type SyntaxNode = TsNode;
export type Grammar = 'python' | 'go' | 'rust' | 'javascript' | 'typescript' | 'tsx' | 'ruby';

const require = createRequire(import.meta.url);
const wasmDir = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));

let ready: Promise<void> | undefined;
const languages = new Map<Grammar, Promise<TsLanguage>>();
const parsers = new Map<Grammar, TsParser>();

async function languageFor(grammar: Grammar): Promise<TsLanguage> {
  ready ??= treeSitter.Parser.init({ locateFile: (file: string) => path.join(wasmDir, file) });
  await ready;
  let language = languages.get(grammar);
  if (!language) {
    language = treeSitter.Language.load(fs.readFileSync(path.join(wasmDir, `tree-sitter-${grammar}.wasm`)));
    languages.set(grammar, language);
  }
  return language;
}

/** The syntax tree of `code` (the root node); fragments with errors still give a tree with ERROR nodes. */
export async function parseCode(grammar: Grammar, code: string): Promise<SyntaxNode> {
  const language = await languageFor(grammar);
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = new treeSitter.Parser();
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
