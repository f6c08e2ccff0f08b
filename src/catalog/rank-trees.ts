// Regression trees added to the linear ranking expression (a LambdaMART boost over the fitted linear score): each tree
// is a nested array `[feature, threshold, below, atOrAbove]` whose leaves are numbers, read over the FEATURES vector of
// rank.ts. bench/lambdamart.ts fits them; scripts/fit-ranking.ts writes them into rank-weights.ts only when they beat
// the linear model on leave-one-set-out validation. An empty list adds 0 (the linear model alone).

export type TreeNode = number | [feature: number, threshold: number, below: TreeNode, atOrAbove: TreeNode];

/** One tree's output for a feature vector: a few comparisons (trees are shallow). */
export function treeValue(node: TreeNode, vector: readonly number[]): number {
  let at = node;
  while (typeof at !== 'number') at = vector[at[0]]! < at[1] ? at[2] : at[3];
  return at;
}

/** Sum of the ensemble's trees (the shrinkage is already in the leaves). */
export function treesScore(trees: readonly TreeNode[], vector: readonly number[]): number {
  let sum = 0;
  for (const tree of trees) sum += treeValue(tree, vector);
  return sum;
}
