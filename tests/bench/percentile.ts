/** The nearest-rank percentile of `values` (p in 0–100): the benchmarks' and the browser tests' p50 and p95. */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]
}
