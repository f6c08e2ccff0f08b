// The key of the fitter's stored pools (scripts/fit-docs-ranking.ts, FIT_CACHE): a pool is reused only while nothing it
// was made from has changed. A pool stores its features (the ranking code's), and `answering`, which candidates answer the
// question, decided when it was asked by the judge in bench/docs-questions.ts. Until round 17 the key hashed the ranking
// code and the question file but not the judge, so a judge change (round 16's Go import paths and backtick-free text)
// silently read pools judged by the old rule unless FIT_REFRESH=1 was set.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The code whose change changes a pool's features, relative to the repository root. */
export const FEATURE_CODE = ['src/docs/rank.ts', 'src/docs/lexical.ts', 'src/docs/centrality.ts', 'src/docs/semantic.ts', 'src/docs/tokens.ts', 'src/docs/index.ts', 'src/docs/links.ts', 'src/docs/package-index.ts'];
/** The folder of the sentence encoder's code (every file in it is hashed). */
export const SEMANTIC_CODE = 'src/semantic';
/** The judge: which passages answer a question (a pool's `answering`). */
export const JUDGE_CODE = 'bench/docs-questions.ts';

export interface PoolKeyInput {
  /** The repository root the code paths are read under. */
  root: string;
  /** The question file, under `bench/`. */
  file: string;
  /** The store the questions were asked on (FIT_HOMES), or none (a fresh one). */
  home: string | undefined;
  /** The asked questions (tool and wording). */
  questions: Array<{ tool: string; question: string }>;
  /** The extractor versions (src/docs/extraction.ts EXTRACTOR_VERSIONS). */
  extractors: unknown;
}

/** 16 hex digits over the extractor versions, the feature code, the judge, the question file, the store and the questions. */
export function poolCacheKey({ root, file, home, questions, extractors }: PoolKeyInput): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(extractors));
  const semantic = path.join(root, SEMANTIC_CODE);
  const semanticFiles = fs.existsSync(semantic) ? fs.readdirSync(semantic).sort().map((f) => path.join(SEMANTIC_CODE, f)) : [];
  for (const code of [...FEATURE_CODE, ...semanticFiles, JUDGE_CODE]) {
    const at = path.join(root, code);
    if (fs.existsSync(at) && fs.statSync(at).isFile()) hash.update(fs.readFileSync(at));
  }
  hash.update(fs.readFileSync(path.join(root, 'bench', file)));
  hash.update(JSON.stringify({ home: home ?? null, questions: questions.map((q) => `${q.tool}\t${q.question}`) }));
  return hash.digest('hex').slice(0, 16);
}
