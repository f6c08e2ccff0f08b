// Shapes of the quickstart capability: usage-example candidates, the programs made from them, and the verification
// record a tool context carries (quickstart.verified). Types only; no behaviour.
import type { Ecosystem } from '../catalog/index.ts';
import type { TestRequest } from '../sandbox/schema.ts';

export type VerifiedStatus = 'ran' | 'pending' | 'failed' | 'unverifiable';

/** What GET /tools/context says about its quickstart (the shape on the board: ux codes against it). */
export interface Verified {
  status: VerifiedStatus;
  /** Package version the program ran against (may differ from the context's version: see note). */
  version?: string;
  /** Sandbox runtime and its toolchain, e.g. "python 3.11.7". */
  runtime?: string;
  ranAt?: string;
  /** The start of what the program printed. */
  stdout?: string;
  durationMs?: number;
  /** Why it failed or cannot be verified; for pending, what is happening. */
  reason?: string;
  /** Said when the verified program differs from the docs in a way a reader should know (e.g. an older pin). */
  note?: string;
  /**
   * What quickstart.code and testRequest are: the program that ran (`verified`), a candidate that has not run or did
   * not succeed (`unverified`), or nothing (`none`: code empty, testRequest null — e.g. while pending, when no
   * candidate could run as shown).
   */
  offer?: 'verified' | 'unverified' | 'none';
}

/** Where an example comes from; `api` is written by tooldex from the package's exported API when the docs have none. */
export type CandidateOrigin = 'readme' | 'docs' | 'doc-comment' | 'doctest' | 'example-file' | 'go-example' | 'api';

/** A usage example found in the package's own published files. */
export interface Candidate {
  code: string;
  /** Fence language or the file's language (python, pycon, rust, go, js, ts, ruby…). */
  language: string;
  origin: CandidateOrigin;
  /** Where a person reads it: a version-pinned file URL. */
  source: string;
  /** The path inside the artifact. */
  path: string;
  /** Go examples: the expected output written under `// Output:`. */
  expectedOutput?: string;
  /** Go examples: the function name (ExampleNew). */
  exampleName?: string;
  /** Fragment combination: the earlier blocks of the same page whose definitions this program includes. */
  combinedFrom?: string[];
  /** Go examples: the package clause of their file (`uuid` for in-package examples, `uuid_test` otherwise). */
  goPackage?: string;
  /** Python doctests: the definition whose docstring holds it (`DataFrame.describe`); absent for a module docstring. */
  owner?: string;
  /** The example's third-party URLs point at a local stand-in web server the program starts first (local-web.ts). */
  localWeb?: boolean;
  /**
   * A server example run with the server in the background and one request made to it, whose answer the program
   * prints before it exits (Go: programs/go-serve.ts).
   */
  serves?: boolean;
}

/** Why a candidate cannot run in a sandbox, in words for people. */
export type Blocker = 'needs network' | 'needs a service' | 'needs input' | 'needs secrets' | 'needs a browser' | 'runs a server' | 'has placeholders';

export interface ScoredCandidate extends Candidate {
  score: number;
  blockers: Blocker[];
  /** Short reasons the score went up or down (debugging, bench). */
  signals: string[];
}

/** What the sandbox is asked to run for one candidate. */
export interface Program {
  request: TestRequest;
  /** The file a reader copies: the entry file's code. */
  code: string;
  language: string;
  /** Version the program pins (differs from the asked version when the sandbox cannot install that one). */
  version: string;
  note?: string;
}

/** Facts the program maker needs about the package version (from its artifact). */
export interface PackageInfo {
  ecosystem: Ecosystem;
  name: string;
  slug: string;
  version: string;
  /** Python module, Rust crate ident, Go import path, npm name. */
  importName: string;
  /** npm: "module" | "commonjs". */
  moduleType?: string;
  /** Go: the package name of the module root and import paths of its sub-packages by package name. */
  goPackages?: Record<string, string>;
  /** Go: exported names declared by each package of the module (for in-package examples, which do not qualify them). */
  goExports?: Record<string, string[]>;
  /** Rust: dependencies and dev-dependencies of the crate's Cargo.toml (version + features), by crate name. */
  rustDeps?: Record<string, { version: string; features: string[]; package?: string }>;
  /** Rust: the crate's own feature names. */
  rustFeatures?: string[];
  /** Rust: what each feature of the crate enables (its Cargo.toml `[features]` table). */
  rustFeatureMap?: Record<string, string[]>;
  /** Rust: the crate's item names that only non-default features compile, with those features (`to_allocvec` → alloc). */
  rustGatedNames?: Record<string, string[]>;
  /** npm: names the package's own examples bind it to, with the binding statement. */
  jsBindings?: Record<string, string>;
  /** Python: names the package's own examples bind it to (`pd` → `import pandas as pd`). */
  pyBindings?: Record<string, string>;
  /** Python: names the package's `__init__.py` binds (what `from pkg import name` gives); undefined when unknown. */
  pyExports?: string[];
  /** Python: every top-level module the distribution ships (attrs: `attr` and `attrs`), from its top_level.txt, else its top-level packages. */
  pyModules?: string[];
  /** Python: the version that will be pinned and why (Requires-Python). */
  pythonPin?: { version: string; note?: string };
  /** npm, Python: data blocks of the docs (ini, YAML, JSON…), the content of files examples read. */
  dataBlocks?: Array<{ path: string; language: string; code: string }>;
  /** npm: what the package really exports, from one probe run before any example runs (imports.ts); its run's status. */
  npmProbe?: { status: string; exports?: import('./imports.ts').NpmExports };
  /** npm: the main entry's type-only exports, read from the declarations of the version fetched (npm-exports.ts). */
  npmTypeOnly?: string[];
  /** npm: declared parameter types per function, method and class (own declarations or @types/<name>), for sample values. */
  npmParamTypes?: import('./npm-values.ts').ParameterTypes;
  /** npm: the declared parameter names in the same shape (a string parameter's name says what text it takes). */
  npmParamNames?: import('./npm-values.ts').ParameterTypes;
  /** Go: the version that will be pinned and why (the go.mod's `go` directive against the sandbox's Go). */
  goPin?: { version: string; note?: string };
}

/** The record stored per (slug, version) once verification ends. */
export interface VerificationResult {
  verified: Verified;
  /** The quickstart shown: the verified program, else the best unverified one. */
  quickstart: { code: string; language: string; source: string } | null;
  testRequest: TestRequest | null;
  /** Import lines known to load (the verified program's, npm's probed exports); the context hands these out. */
  imports?: string[];
  /** Per tried candidate: where from and how it ended (bench, debugging). */
  tried: Array<{ source: string; status: string; detail?: string }>;
  /**
   * Why the program that ran was chosen (bench, debugging): where it came from, its score, the named features that
   * made the score, and its place in the ranking (1 = the best-ranked candidate).
   */
  chosen?: { origin: CandidateOrigin; score: number; signals: string[]; rank: number; of: number };
}
