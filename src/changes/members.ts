// Members of a TypeScript class or interface whose passage carries them folded into its declaration (docs extraction
// folds comment-less members into their container). Read with the TypeScript parser, so that a member removed or
// changed is reported as that member, not as a change somewhere in its container.
import ts from 'typescript';

export interface Member { name: string; signature: string }

const TYPESCRIPT_FILE = /\.(d\.)?(ts|mts|cts|tsx)$|\.(c|m)?js$/;

export function foldedMembers(source: string, declaration: string): Member[] {
  if (!TYPESCRIPT_FILE.test(source) || !/\b(class|interface)\b/.test(declaration)) return [];
  const file = ts.createSourceFile('item.d.ts', declaration, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const members: Member[] = [];
  const seen = new Map<string, string[]>();
  for (const statement of file.statements) {
    if (!ts.isClassDeclaration(statement) && !ts.isInterfaceDeclaration(statement)) continue;
    for (const member of statement.members) {
      const name = member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) || ts.isPrivateIdentifier(member.name)) ? member.name.text : undefined;
      if (!name || ts.isPrivateIdentifier(member.name!)) continue;
      const modifiers = ts.canHaveModifiers(member) ? ts.getModifiers(member) ?? [] : [];
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
      // Overloads of one method are one member whose signature is all of them.
      const text = member.getText(file).replace(/;\s*$/, '');
      seen.set(name, [...(seen.get(name) ?? []), text]);
    }
  }
  for (const [name, texts] of seen) members.push({ name, signature: texts.join('\n') });
  return members;
}
