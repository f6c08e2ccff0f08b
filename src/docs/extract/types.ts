// The unit every extractor produces and the indexer stores: one passage with its person-openable source.

export interface PassageDraft {
  url: string;
  title?: string;
  /** Heading trail, page title first. */
  headings: string[];
  content: string;
  /** Where it came from: a file path inside the artifact, or a page URL. */
  source: string;
  /** Symbols the passage documents (exact-identifier boost), beyond those found in its text. */
  identifiers?: string[];
  /** The public symbol path it documents (`tokio::time::timeout`, `pydantic.ConfigDict.extra`), for API passages. */
  symbol?: string;
  /** 0–1: what a reader of the package needs first (README, entry-point API) high; internals low. Fills the cap. */
  importance?: number;
  /** Not reachable through the package's public API (private module, bundler chunk, helper): ranked down. */
  internal?: boolean;
  deprecated?: boolean;
  /** A part of another item documented on its own (a Go struct field): where the cap binds, it yields to whole items. */
  member?: boolean;
}

/** Builds a passage URL from a location in a document: a heading anchor, or a line number. */
export type LocateFn = (where: { anchor?: string; line: number }) => string;
