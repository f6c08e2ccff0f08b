// The imports rustc itself proposes for a name an example uses without bringing it into scope: `help: consider
// importing this struct` (a type or function from std or a crate), `help: trait `Name` which provides `type_url` is
// implemented but not in scope; perhaps you want to import it` (a trait method). A doctest often leaves these `use`
// lines hidden or to the reader; the compiler's own suggestion is the repair, not a guess.

/** A `use` line rustc proposes, with the crate its path starts in. */
export interface SuggestedUse { line: string; root: string }

const BUILTIN_ROOTS = new Set(['std', 'core', 'alloc']);

/**
 * The `use` lines of rustc's import suggestions, one per help: the only candidate, or among several the one from the
 * crate under test (else the help is ambiguous and skipped). Paths into the program itself (`crate::`, `self::`,
 * `super::`) are left out: they name nothing the program lacks.
 */
export function suggestedUses(stderr: string, ownCrate: string): SuggestedUse[] {
  const out: SuggestedUse[] = [];
  const lines = stderr.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^help: (consider importing|.*perhaps you want to import)/.test(lines[i]!)) continue;
    const candidates: SuggestedUse[] = [];
    // The suggestion block: `  |`, then `N + use a::b::C;` lines (one per candidate), until the next message.
    for (let j = i + 1; j < lines.length && /^\s*(\d+\s*\+|\||\d+\s*\||\.\.\.|$)/.test(lines[j]!) && !/^(error|warning|help|note)/.test(lines[j]!); j++) {
      const use = /^\s*\d+\s*\+\s*(use ((?:r#)?[A-Za-z_]\w*)(?:::[\w{}, *]+)+;)\s*$/.exec(lines[j]!);
      if (use && !/^(crate|self|super)$/.test(use[2]!)) candidates.push({ line: use[1]!, root: use[2]! });
    }
    const own = ownCrate.replace(/-/g, '_');
    const pick = candidates.length === 1 ? candidates[0] : candidates.filter((c) => c.root === own).length === 1 ? candidates.find((c) => c.root === own) : undefined;
    if (pick && !out.some((o) => o.line === pick.line)) out.push(pick);
  }
  return out;
}

/** Whether a suggested path's crate is one the program can have: std, the crate itself, or a dependency it declares. */
export function useRootKnown(root: string, ownCrate: string, deps: Record<string, unknown>): string | undefined {
  if (BUILTIN_ROOTS.has(root) || root === ownCrate.replace(/-/g, '_')) return '';
  return Object.keys(deps).find((name) => name.replace(/-/g, '_') === root);
}

/** The program with the `use` lines added at its top, after any inner attributes (`#![…]`) that must come first. */
export function withUses(main: string, uses: string[]): string {
  const fresh = uses.filter((u) => !main.includes(u));
  if (!fresh.length) return main;
  const lines = main.split('\n');
  let at = 0;
  while (at < lines.length && /^\s*(#!\[.*\]\s*|\/\/.*|)$/.test(lines[at]!)) at++;
  return [...lines.slice(0, at), ...fresh, ...lines.slice(at)].join('\n');
}

/**
 * A `use` line tooldex added that rustc refuses as private (`error[E0603]: module `name` is private` at that line):
 * rustc may propose a path through the private module that defines an item (`prost::name::Name`) rather than the
 * crate's public re-export. The refused line, and the re-export at the crate root it is replaced with (`prost::Name`),
 * where crates re-export what they mean to be used; undefined when the private path is not one tooldex added.
 */
export function refusedUse(stderr: string, main: string, added: string[]): { refused: string; root: string } | undefined {
  for (const match of stderr.matchAll(/error\[E0603\]: [\w ]+ `[\w]+` is private\s*\n\s*--> src\/main\.rs:(\d+):\d+/g)) {
    const line = main.split('\n')[Number(match[1]) - 1]?.trim();
    if (!line || !added.includes(line)) continue;
    const path = /^use ((?:r#)?\w+)::(?:\w+::)+(\w+);$/.exec(line);
    return { refused: line, root: path ? `use ${path[1]}::${path[2]};` : '' };
  }
  return undefined;
}
