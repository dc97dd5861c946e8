/**
 * Money at the API boundary: amounts are rounded to cents, unit prices keep 4 decimals. The
 * `toPrecision(15)` step removes binary noise first, so 1.005 rounds to 1.01 and not 1.00.
 */
const round = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round(Number((value * factor).toPrecision(15))) / factor;
};

export const roundCents = (value: number) => round(value, 2);
export const roundUnitPrice = (value: number) => round(value, 4);

/** Half a cent: a sent total within this distance of quantity x unitPrice is accepted. */
export const TOTAL_TOLERANCE = 0.005;

export const totalsMatch = (sent: number, expected: number) =>
  Math.abs(sent - expected) <= TOTAL_TOLERANCE + 1e-9;
