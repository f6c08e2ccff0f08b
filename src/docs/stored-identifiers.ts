// The identifiers stored with a passage (docs_passages.identifiers), from the passage alone: computed on the extraction
// thread beside the passages (extraction-thread.ts), so a large package's first question does not spend its main
// thread finding them (kubernetes: seconds at load 14–20), and on the main thread where no thread could extract.
import type { PassageDraft } from './extract/types.ts';
import { identifiersIn } from './tokens.ts';

/**
 * Identifiers stored per passage: the extractor's own names (the item's, then members folded into it: a struct's or
 * interface's `Owner.member` names, two per member) up to MAX_OWN_IDENTIFIERS, then up to MAX_TEXT_IDENTIFIERS found in
 * the text. Separate caps, so a large struct neither loses its later members nor pushes the text's names out.
 */
export const MAX_OWN_IDENTIFIERS = 400;
export const MAX_TEXT_IDENTIFIERS = 40;

export function storedIdentifiers(passage: Pick<PassageDraft, 'identifiers' | 'title' | 'content'>): string[] {
  const own = [...new Set(passage.identifiers ?? [])].slice(0, MAX_OWN_IDENTIFIERS);
  const known = new Set(own);
  const found = identifiersIn(`${passage.title ?? ''}\n${passage.content}`, own.length + MAX_TEXT_IDENTIFIERS).filter((id) => !known.has(id)).slice(0, MAX_TEXT_IDENTIFIERS);
  return [...own, ...found];
}
