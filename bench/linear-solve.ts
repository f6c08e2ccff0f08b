// The one linear solver of the ranking fits (search: bench/search-harness.ts; docs: scripts/fit-docs-ranking.ts):
// each Newton step of their penalised logistic regressions solves Hessian · step = gradient, with a dozen unknowns.

/** Gaussian elimination with partial pivoting, then back substitution (small d: the fits have ≤ 15 features). */
export function solve(matrix: ArrayLike<number>[], vector: ArrayLike<number>): Float64Array {
  const n = vector.length;
  const a = matrix.map((row, i) => [...Array.from(row), vector[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
    [a[c], a[pivot]] = [a[pivot]!, a[c]!];
    const p = a[c]![c]! || 1e-12;
    for (let r = c + 1; r < n; r++) {
      const f = a[r]![c]! / p;
      for (let k = c; k <= n; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  const x = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    let sum = a[r]![n]!;
    for (let k = r + 1; k < n; k++) sum -= a[r]![k]! * x[k]!;
    x[r] = sum / (a[r]![r]! || 1e-12);
  }
  return x;
}
