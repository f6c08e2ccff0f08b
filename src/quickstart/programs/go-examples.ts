// The part of a Go test file an `Example…` function needs: the file's top-level declarations it uses, directly or
// through each other (helpers, types with their methods, package variables), read with the Go grammar. Not the
// file's `Test…` functions and other helpers: they are not part of the example, and their code (`t.Run("case", …)`,
// a test server) made a runnable example look like a server or an input reader before it was ever run.
import { descendants, namedChildren, withSyntaxTree, type SyntaxNode } from '../parse.ts';

const DECLARATION = /^(function_declaration|method_declaration|type_declaration|var_declaration|const_declaration)$/;

interface Declaration { text: string; names: string[]; receiver?: string; uses: Set<string> }

function declaredNames(node: SyntaxNode): string[] {
  if (node.type === 'function_declaration') return [node.childForFieldName('name')?.text ?? ''];
  if (node.type === 'method_declaration') return [];
  const specs = descendants(node, ['type_spec', 'type_alias', 'var_spec', 'const_spec']).filter((s) => s.parent?.equals(node) || s.parent?.parent?.equals(node));
  return specs.flatMap((s) => s.childrenForFieldName('name').filter((n): n is SyntaxNode => Boolean(n)).map((n) => n.text));
}

function identifiersIn(node: SyntaxNode): Set<string> {
  return new Set(descendants(node, ['identifier', 'type_identifier']).map((n) => n.text));
}

/**
 * The declarations of `file` (Go source) that the function `name` uses, transitively, in file order, as text; the
 * function itself is not among them. A method comes with its receiver type; `init` functions are left out.
 */
export async function exampleDeclarations(file: string, name: string): Promise<string[]> {
  return withSyntaxTree('go', file, (root) => {
    const all: Declaration[] = [];
    let example: SyntaxNode | undefined;
    for (const node of namedChildren(root)) {
      if (!DECLARATION.test(node.type)) continue;
      const declared = declaredNames(node);
      if (node.type === 'function_declaration' && declared[0] === name) { example = node; continue; }
      if (node.type === 'function_declaration' && declared[0] === 'init') continue;
      const receiverType = node.type === 'method_declaration' ? descendants(node.childForFieldName('receiver') ?? node, 'type_identifier')[0]?.text : undefined;
      all.push({ text: node.text, names: declared, ...(receiverType ? { receiver: receiverType } : {}), uses: identifiersIn(node) });
    }
    if (!example) return [];
    const used = identifiersIn(example);
    const kept = new Set<Declaration>();
    for (let grew = true; grew;) {
      grew = false;
      for (const declaration of all) {
        if (kept.has(declaration)) continue;
        const needed = declaration.receiver ? used.has(declaration.receiver) : declaration.names.some((n) => used.has(n));
        if (!needed) continue;
        kept.add(declaration);
        for (const id of declaration.uses) used.add(id);
        grew = true;
      }
    }
    return all.filter((d) => kept.has(d)).map((d) => d.text);
  });
}
