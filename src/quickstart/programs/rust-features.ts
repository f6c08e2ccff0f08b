// Feature gates of the documented crate in a Rust example. Inside a doctest, `#[cfg(feature = "x")]` and
// `cfg!(feature = "x")` read the documented crate's features (cargo passes them to rustdoc); in a quickstart program
// they read the program's own features, which it has none of, so the gated code is silently compiled out (cacache's
// `link_to` doctest then read a key it never wrote). The program enables the features the gates name on the crate's
// dependency and resolves each gate as the doctest would see it: the attribute goes, or the code under it does.
import { cfgHolds, cfgPredicate, cfgTreeHolds, hostTarget, parseCfg, type CfgPredicate } from '../../docs/extract/rust-cfg.ts';
import { descendants, parseCode, type SyntaxNode } from '../parse.ts';

export interface FeatureGated { code: string; features: string[] }

/** Containers whose attributes stand before the item or statement they gate (a sibling node in the tree). */
const SIBLING_GATED = /^(source_file|block|declaration_list|field_declaration_list|enum_variant_list|match_block)$/;

/**
 * The example with its feature gates resolved for the crate built with the features they name (only features the
 * crate's manifest declares; others stay off, as they were for the doctest), and those features. Gates that name no
 * feature (`#[cfg(test)]`, `#[cfg(unix)]`) are left to rustc, which reads them the same way in the program.
 */
export async function resolveFeatureGates(code: string, crateFeatures: string[]): Promise<FeatureGated> {
  if (!/\bfeature\s*=/.test(code)) return { code, features: [] };
  const root = await parseCode('rust', code);
  const gates: { node: SyntaxNode; predicate: string; kind: 'attribute' | 'inner' | 'macro' }[] = [];
  for (const node of descendants(root, ['attribute_item', 'inner_attribute_item'])) {
    const predicate = cfgPredicate(namedChild(node, 'attribute')?.text ?? '');
    if (predicate && /\bfeature\s*=/.test(predicate)) gates.push({ node, predicate, kind: node.type === 'attribute_item' ? 'attribute' : 'inner' });
  }
  for (const node of descendants(root, 'macro_invocation')) {
    const tokens = node.namedChildren.find((c) => c?.type === 'token_tree');
    if (node.childForFieldName('macro')?.text === 'cfg' && tokens && /\bfeature\s*=/.test(tokens.text)) gates.push({ node, predicate: tokens.text.slice(1, -1), kind: 'macro' });
  }
  const declared = new Set(crateFeatures);
  const features = [...new Set(gates.flatMap((g) => featuresToSatisfy(g.predicate)))].filter((f) => declared.has(f)).sort();
  if (!gates.length) return { code, features };
  const target = hostTarget(features);
  const edits: { start: number; end: number; text: string }[] = [];
  for (const gate of gates) {
    const holds = cfgHolds(gate.predicate, target);
    if (gate.kind === 'macro') edits.push({ start: gate.node.startIndex, end: gate.node.endIndex, text: String(holds) });
    else if (holds) edits.push(wholeLines(code, gate.node.startIndex, gate.node.endIndex));
    // A whole doctest gated off is compiled empty by rustdoc too: the program keeps the gate and fails to build.
    else if (gate.kind === 'attribute') {
      const gated = gatedNode(gate.node);
      if (gated) edits.push(wholeLines(code, gate.node.startIndex, trailingComma(gated)));
    }
  }
  return { code: applyEdits(code, edits), features };
}

/**
 * The features to turn on so that a predicate can hold: every one `all(…)` names, for `any(…)` none when an
 * alternative holds already (with `on`) and else the first alternative's (two ways of one thing, such as two async
 * runtimes, may exclude each other), nothing under `not(…)`. Options that are not features are left to the target.
 */
export function featuresToSatisfy(predicate: string, on: string[] = []): string[] {
  const target = hostTarget(on);
  const needed = (p: CfgPredicate): string[] => {
    if ('key' in p) return p.key === 'feature' && p.value !== undefined ? [p.value] : [];
    if ('name' in p || p.op === 'not') return [];
    if (p.op === 'all') return p.parts.flatMap(needed);
    if (p.parts.some((part) => cfgTreeHolds(part, target))) return [];
    return p.parts.map(needed).find((features) => features.length) ?? [];
  };
  return [...new Set(needed(parseCfg(predicate)))];
}

/** What an outer attribute gates: the next item or statement beside it, or the field, arm or parameter it sits in. */
function gatedNode(attribute: SyntaxNode): SyntaxNode | null {
  const parent = attribute.parent;
  if (!parent) return null;
  if (!SIBLING_GATED.test(parent.type)) return parent;
  for (let next = attribute.nextNamedSibling; next; next = next.nextNamedSibling) {
    if (next.type !== 'attribute_item' && !/comment$/.test(next.type)) return next;
  }
  return null;
}

/** The end of a node with the `,` that separates it from the next (a struct field, a match arm). */
function trailingComma(node: SyntaxNode): number {
  const next = node.nextSibling;
  return next?.type === ',' ? next.endIndex : node.endIndex;
}

/** The range widened to whole lines when nothing else shares them, so no blank line is left where code was. */
function wholeLines(code: string, start: number, end: number): { start: number; end: number; text: string } {
  const lineStart = code.lastIndexOf('\n', start - 1) + 1;
  const newline = code.indexOf('\n', end);
  const lineEnd = newline < 0 ? code.length : newline + 1;
  if (code.slice(lineStart, start).trim() === '' && code.slice(end, lineEnd).trim() === '') return { start: lineStart, end: lineEnd, text: '' };
  return { start, end, text: '' };
}

/** Edits applied last first; one inside another's range (a gate within removed code) is dropped with it. */
function applyEdits(code: string, edits: { start: number; end: number; text: string }[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: typeof edits = [];
  for (const edit of sorted) if (!kept.length || edit.start >= kept.at(-1)!.end) kept.push(edit);
  let out = code;
  for (const edit of kept.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

function namedChild(node: SyntaxNode, type: string): SyntaxNode | undefined {
  return node.namedChildren.find((c): c is SyntaxNode => c?.type === type);
}

/**
 * The features the example needs for the crate's names it uses that only a non-default feature compiles (`gated`,
 * read from the crate's source by `featureGatedNames`): every segment of a path through the crate (`use postcard::
 * to_allocvec`, `fern::colors::Color`, `#[pollster::main]`, also inside macro arguments), and the macros and derives
 * it names bare (`#[derive(Dummy)]`).
 */
export async function featuresForGatedNames(code: string, importName: string, gated: Record<string, string[]>): Promise<string[]> {
  if (!Object.keys(gated).length) return [];
  const root = await parseCode('rust', code);
  const own = importName.replace(/-/g, '_');
  const names = new Set<string>();
  // Each segment, and each pair of segments (`future::retry`: a name as one module of the crate declares it).
  const segments = (node: SyntaxNode) => {
    const ids = descendants(node, ['identifier', 'type_identifier']).map((id) => id.text);
    ids.forEach((id, i) => { names.add(id); if (i > 0) names.add(`${ids[i - 1]}::${id}`); });
  };
  for (const use of descendants(root, 'use_declaration')) if (descendants(use, 'identifier')[0]?.text === own) segments(use);
  for (const node of descendants(root, ['scoped_identifier', 'scoped_type_identifier'])) {
    let head: SyntaxNode | null = node;
    while (head && /^scoped/.test(head.type)) head = head.childForFieldName('path');
    if (head?.text === own) segments(node);
  }
  for (const tree of descendants(root, 'token_tree')) {
    const tokens = tree.children.filter((c): c is SyntaxNode => c !== null);
    tokens.forEach((token, i) => {
      if (token.text !== own || tokens[i + 1]?.type !== '::') return;
      for (let j = i + 2; tokens[j] && /identifier$/.test(tokens[j]!.type); j += 2) {
        names.add(tokens[j]!.text);
        if (j > i + 2) names.add(`${tokens[j - 2]!.text}::${tokens[j]!.text}`);
        if (tokens[j + 1]?.type !== '::') break;
      }
    });
  }
  for (const call of descendants(root, 'macro_invocation')) {
    const name = call.childForFieldName('macro');
    if (name?.type === 'identifier') names.add(name.text);
  }
  for (const attribute of descendants(root, 'attribute')) {
    if (attribute.namedChildren[0]?.text !== 'derive') continue;
    descendants(attribute, 'identifier').slice(1).forEach((id) => names.add(id.text));
  }
  names.delete(own);
  return [...new Set([...names].flatMap((name) => gated[name] ?? []))].sort();
}
