// Platt scaling for the teach fit (scripts/fit-quickstart-teach.ts): a strongly regularised logistic fit orders the
// programs well but pulls every probability toward the base rate, while the doubt note (teach-model.ts TEACH_DOUBT)
// reads the probability itself. One unpenalised scale and bias over the fitted linear score, fitted by log-loss on the
// same examples: the order (picks, AUC) is unchanged, the probabilities mean what they say again.

/** The scale (> 0) and bias that best turn linear scores `zs` into probabilities of `ys` (0/1); `bias` starts the fit. */
export function calibrate(zs: number[], ys: number[], bias = 0): { scale: number; bias: number } {
  const n = zs.length;
  let a = 1;
  let c = bias;
  for (let step = 0; step < 2000; step++) {
    let ga = 0;
    let gc = 0;
    zs.forEach((z, k) => {
      const p = 1 / (1 + Math.exp(-(a * z + c)));
      ga += ((p - ys[k]!) * z) / n;
      gc += (p - ys[k]!) / n;
    });
    a -= 0.5 * ga;
    c -= 0.5 * gc;
  }
  // A score that orders the examples backwards (or not at all) is left as fitted: calibration never flips the order.
  return a > 0 ? { scale: a, bias: c } : { scale: 1, bias };
}
