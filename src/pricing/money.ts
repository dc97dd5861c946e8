/**
 * Rounding at the output boundary. Everything upstream is unrounded; amounts are rounded to
 * whole cents once, and totals are sums of those integer cents, so a total always equals the
 * sum of the parts shown.
 */
export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;
export const sumCents = (cents: number[]): number => cents.reduce((sum, c) => sum + c, 0);
export const round2 = (n: number): number => Math.round(n * 100) / 100;
export const round4 = (n: number): number => Math.round(n * 1e4) / 1e4;
export const round1 = (n: number): number => Math.round(n * 10) / 10;

/**
 * Splits `totalCents` over weights so the parts are whole cents that add up exactly
 * (largest remainder; ties to the earlier part).
 */
export function allocateCents(totalCents: number, weights: number[]): number[] {
  const weightSum = weights.reduce((a, b) => a + b, 0);
  if (weightSum <= 0) return weights.map((_, i) => (i === 0 ? totalCents : 0));
  const raw = weights.map((w) => (totalCents * w) / weightSum);
  const parts = raw.map((r) => Math.floor(r));
  let left = totalCents - parts.reduce((a, b) => a + b, 0);
  const order = raw
    .map((r, i) => ({ i, frac: r - Math.floor(r) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}
