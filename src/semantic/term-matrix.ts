// The closest terms of a fixed vocabulary to a word vector, exactly, for the docs word expansion (`sort` → order): a
// package's name vocabulary (thousands of terms) is scanned once per new question word, and that scan was a sixth of a
// docs answer's main-thread CPU under load. The vectors are kept in one contiguous matrix, and each term's similarity
// is first bounded from its leading dimensions: the static model's dimensions are principal components, ordered by
// variance, so the leading ones hold most of a vector's length: after 96 dimensions the bound rules out ~60 % of a
// package's terms for a typical word, after 160 ~97 % (measured on 5,000 vocabulary words, threshold 0.5). Terms are skipped only when the bound proves they cannot qualify, so the answer is exactly the
// one a full scan gives (same similarities, summed in the same order; same tie order).

/** Dimensions summed before each check of the bound. */
const STAGES = [96, 160];
/** Slack on the bound for floating-point rounding (similarities are summed in float64 from float32 values). */
const ROUNDING = 1e-6;

export interface TermMatch { term: string; sim: number }

export class TermMatrix {
  readonly size: number;
  private readonly matrix: Float32Array;
  /** Per stage, each term's length after the stage's dimensions (Cauchy–Schwarz bound on the rest of its similarity). */
  private readonly tails: Float32Array[];
  private readonly stages: number[];

  constructor(readonly terms: string[], vectors: Float32Array[], readonly dimensions: number) {
    this.size = terms.length;
    this.matrix = new Float32Array(this.size * dimensions);
    this.stages = STAGES.filter((stage) => stage < dimensions);
    this.tails = this.stages.map(() => new Float32Array(this.size));
    vectors.forEach((vector, t) => {
      this.matrix.set(vector.subarray(0, dimensions), t * dimensions);
      this.stages.forEach((stage, s) => { this.tails[s]![t] = tailLength(vector, stage, dimensions); });
    });
  }

  /** Bytes held (the matrix and the bounds), for reporting cache sizes. */
  get bytes(): number {
    return this.matrix.byteLength + this.tails.reduce((sum, tails) => sum + tails.byteLength, 0);
  }

  /**
   * The `limit` terms most similar to `query` (a unit vector) with similarity ≥ `minSimilarity`, best first; `skip` is
   * left out (the word itself). Ties keep vocabulary order.
   */
  nearest(query: Float32Array, limit: number, minSimilarity: number, skip?: string): TermMatch[] {
    const dims = this.dimensions;
    const { matrix, tails, terms, stages } = this;
    const queryTails = stages.map((stage) => tailLength(query, stage, dims));
    const best: TermMatch[] = [];
    terms: for (let t = 0, row = 0; t < this.size; t++, row += dims) {
      // A candidate must beat the threshold, or (list full) strictly beat the last kept one.
      const threshold = best.length < limit ? minSimilarity : best[best.length - 1]!.sim;
      let sum = 0;
      let i = 0;
      for (let s = 0; s < stages.length; s++) {
        for (const end = stages[s]!; i < end; i++) sum += query[i]! * matrix[row + i]!;
        if (sum + queryTails[s]! * tails[s]![t]! + ROUNDING < threshold) continue terms;
      }
      for (; i < dims; i++) sum += query[i]! * matrix[row + i]!;
      if (sum < minSimilarity || (best.length >= limit && !(sum > threshold))) continue;
      const term = terms[t]!;
      if (term === skip) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.sim < sum) at--;
      best.splice(at, 0, { term, sim: sum });
      if (best.length > limit) best.pop();
    }
    return best;
  }
}

function tailLength(vector: Float32Array, from: number, dims: number): number {
  let sum = 0;
  for (let i = from; i < dims; i++) sum += vector[i]! * vector[i]!;
  return Math.sqrt(sum);
}
