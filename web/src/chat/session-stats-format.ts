/* How the statistics dialog writes its figures: thousands separators, dollars to a readable precision. */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A count or a number of tokens: `1,234,567`. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return '?';
  return integer.format(Math.round(value));
}

/**
 * A cost in USD, without the unit (the column header names it): four decimals below one dollar,
 * where a turn's cost lives (`0.0042`), two from there on (`12,345.68`); a cost too small for four
 * decimals but not zero reads `<0.0001`, never a misleading `0.0000`.
 */
export function formatCost(value: number): string {
  if (!Number.isFinite(value)) return '?';
  if (value > 0 && value < 0.0001) return '<0.0001';
  const digits = Math.abs(value) < 1 ? 4 : 2;
  return new Intl.NumberFormat('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}
