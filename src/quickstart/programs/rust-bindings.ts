// Rust examples that print nothing and check nothing show the values they bind. A doctest often does the package's job
// and leaves the result in a local (`let tmp_dir = TempDir::new("example")?;`, `let dur = parse_duration("2h")?;`),
// or hands it to a side effect (a file written, a value dropped): it ran silent and verification refused it, though it
// worked. The program prints each binding whose value it computed, right after the `let` (before anything can move
// it), when its type implements `Debug`; one that does not prints nothing and still compiles (autoref specialization:
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

/** The `let` statements whose values are worth showing: in the doctest's own statements and its top-level functions' bodies. */
function shownLets(root: SyntaxNode): SyntaxNode[] {
  const blocks = [root, ...namedChildren(root).filter((n) => n.type === 'function_item' && !isTest(n)).map((fn) => fn.childForFieldName('body'))];
  const lets: SyntaxNode[] = [];
  for (const block of blocks) {
    if (!block) continue;
    for (const statement of namedChildren(block)) {
      if (statement.type !== 'let_declaration' || statement.childForFieldName('alternative')) continue;
      const pattern = statement.childForFieldName('pattern');
      const value = statement.childForFieldName('value');
      if (pattern?.type !== 'identifier' || pattern.text.startsWith('_') || !value) continue;
      if (!COMPUTES.includes(value.type) && !descendants(value, COMPUTES).length) continue;
      lets.push(statement);
    }
  }
  return lets.sort((a, b) => a.startIndex - b.startIndex).slice(0, MAX_SHOWN);
}

/**
 * The program with a show after each computed binding (see the module's comment), or unchanged when it binds none.
 * Callers append SHOW_MODULE once the program has its `fn main` (`usesShows` says whether it is needed).
 */
export function showBindings(code: string): Promise<string> {
  return withSyntaxTree('rust', code, (root) => {
    let out = code;
    for (const statement of shownLets(root).reverse()) {
      const name = statement.childForFieldName('pattern')!.text;
      out = `${out.slice(0, statement.endIndex)} ${showStatement(name)}${out.slice(statement.endIndex)}`;
    }
    return out;
  });
}

/** Whether the program calls the show helper (and so needs SHOW_MODULE at its root). */
export const usesShows = (code: string): boolean => code.includes('crate::__tooldex::Show(');
