// Rust examples that print nothing and check nothing show the values they bind. A doctest often does the package's job
// and leaves the result in a local (`let tmp_dir = TempDir::new("example")?;`, `let dur = parse_duration("2h")?;`),
// or hands it to a side effect (a file written, a value dropped): it ran silent and verification refused it, though it
// worked. The program prints each binding whose value it computed, right after the `let` (before anything can move
// it), when its type implements `Debug`; a `let mut` value is built up after its `let` (`roots.add(cert)` in a loop:
// shown right after the let it is still empty), so it is shown after the last statement that changes it through a
// method call or a reference, or just before a statement that may move it (see showAt); one that does not prints nothing and still compiles (autoref specialization:
// the `Debug` impl is found first on `Show<T>`, the fallback on `&Show<T>`), so the rewrite never costs a build.
// Read from the syntax tree (tree-sitter's Rust grammar): the statements of the doctest itself and of the functions it
// defines at its top level; not inside loops, closures or `#[test]` functions. No package named.
import { descendants, namedChildren, withSyntaxTree, type SyntaxNode } from '../parse.ts';

/** At most this many bindings shown: the first ones an example computes are its steps; more is noise. */
const MAX_SHOWN = 6;
/** A computed value: a call (method calls included), a macro, a `?` or an `.await`, not a literal or a copy. */
const COMPUTES = ['call_expression', 'macro_invocation', 'try_expression', 'await_expression'];

/** The helper the shown bindings call, at the crate root (paths to it are absolute: it works from any function). */
export const SHOW_MODULE = `
#[allow(dead_code)]
mod __tooldex {
    // tooldex: a binding's value as Debug shows it, or None when its type has no Debug impl.
    pub struct Show<'a, T: ?Sized>(pub &'a T);
    pub trait ViaDebug { fn tooldex_shown(&self) -> Option<String>; }
    impl<T: ?Sized + std::fmt::Debug> ViaDebug for Show<'_, T> {
        fn tooldex_shown(&self) -> Option<String> {
            let text = format!("{:?}", self.0);
            Some(if text.chars().count() > 300 { format!("{}…", text.chars().take(300).collect::<String>()) } else { text })
        }
    }
    pub trait ViaNothing { fn tooldex_shown(&self) -> Option<String>; }
    impl<T: ?Sized> ViaNothing for &Show<'_, T> { fn tooldex_shown(&self) -> Option<String> { None } }
}
`;

/** The statement that prints `name` when its type can be shown. */
export function showStatement(name: string): string {
  return `{ #[allow(unused_imports)] use crate::__tooldex::{ViaDebug as _, ViaNothing as _}; if let Some(shown) = (&crate::__tooldex::Show(&${name})).tooldex_shown() { println!("${name} = {}", shown); } }`;
}

/** Whether a function is a test (`#[test]`, `#[tokio::test]`): its bindings are not the example's results. */
function isTest(fn: SyntaxNode): boolean {
  for (let prev = fn.previousNamedSibling; prev && (prev.type === 'attribute_item' || /comment$/.test(prev.type)); prev = prev.previousNamedSibling) {
    if (/^#\[\s*(\w+::)*test\b/.test(prev.text)) return true;
  }
  return false;
}

/** A binding shown: its name, its `let`, and where the show goes in the source. */
interface Shown { name: string; statement: SyntaxNode; at: number }

/** Whether a use of a binding leaves it in place: a method call on it (`roots.add(cert)`), a field read, `&x`, `&mut x`. */
function keepsBinding(use: SyntaxNode): boolean {
  const parent = use.parent;
  if (parent?.type === 'reference_expression') return true;
  return parent?.type === 'field_expression' && Boolean(parent.childForFieldName('value')?.equals(use));
}

/**
 * Where a binding's show goes. A plain `let`: right after it. A `let mut`: after the last later statement of its block
 * that uses it, when that statement is a statement (not a block's value) that only calls methods on it or borrows it;
 * otherwise just before that statement (a `let` built from it or a call taking it may move it, and a show after a move
 * does not compile).
 */
function showAt(statement: SyntaxNode, name: string, siblings: SyntaxNode[]): number {
  if (!statement.children.some((n) => n?.type === 'mutable_specifier')) return statement.endIndex;
  const later = siblings.filter((s) => s.startIndex > statement.startIndex);
  const usesOf = (s: SyntaxNode) => descendants(s, ['identifier']).filter((id) => id.text === name);
  const last = [...later].reverse().find((s) => usesOf(s).length);
  if (!last) return statement.endIndex;
  // A statement ends in `;` or is block-like (a loop, an `if`); a show after anything else would not parse.
  const endsStatement = last.type === 'expression_statement' && (last.text.trimEnd().endsWith(';') || /^(for|while|loop|if)\b/.test(last.text));
  return endsStatement && usesOf(last).every(keepsBinding) ? last.endIndex : last.startIndex;
}

/** The `let` statements whose values are worth showing: in the doctest's own statements and its top-level functions' bodies. */
function shownLets(root: SyntaxNode): Shown[] {
  const blocks = [root, ...namedChildren(root).filter((n) => n.type === 'function_item' && !isTest(n)).map((fn) => fn.childForFieldName('body'))];
  const lets: Shown[] = [];
  for (const block of blocks) {
    if (!block) continue;
    const statements = namedChildren(block);
    for (const statement of statements) {
      if (statement.type !== 'let_declaration' || statement.childForFieldName('alternative')) continue;
      const pattern = statement.childForFieldName('pattern');
      const value = statement.childForFieldName('value');
      if (pattern?.type !== 'identifier' || pattern.text.startsWith('_') || !value) continue;
      if (!COMPUTES.includes(value.type) && !descendants(value, COMPUTES).length) continue;
      lets.push({ name: pattern.text, statement, at: showAt(statement, pattern.text, statements) });
    }
  }
  return lets.sort((a, b) => a.statement.startIndex - b.statement.startIndex).slice(0, MAX_SHOWN);
}

/**
 * The program with a show after each computed binding (see the module's comment), or unchanged when it binds none.
 * Callers append SHOW_MODULE once the program has its `fn main` (`usesShows` says whether it is needed).
 */
export function showBindings(code: string): Promise<string> {
  return withSyntaxTree('rust', code, (root) => {
    let out = code;
    // From the end, so that each position still points into the text as parsed.
    for (const { name, at } of shownLets(root).sort((a, b) => b.at - a.at)) {
      out = `${out.slice(0, at)} ${showStatement(name)} ${out.slice(at)}`;
    }
    return out;
  });
}

/** Whether the program calls the show helper (and so needs SHOW_MODULE at its root). */
export const usesShows = (code: string): boolean => code.includes('crate::__tooldex::Show(');
