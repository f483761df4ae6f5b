import { describe, expect, it } from 'vitest';
import { formatCost, formatCount } from './session-stats-format';

describe('session statistics formatting', () => {
  it('writes counts with thousands separators', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1234)).toBe('1,234');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(Number.NaN)).toBe('?');
  });

  it('writes small costs to four decimals and large ones to cents', () => {
    expect(formatCost(0)).toBe('0.0000');
    expect(formatCost(0.0042)).toBe('0.0042');
    expect(formatCost(0.12345)).toBe('0.1235');
    expect(formatCost(1.5)).toBe('1.50');
    expect(formatCost(12345.678)).toBe('12,345.68');
  });

  it('never shows a tiny non-zero cost as zero', () => {
    expect(formatCost(0.00001)).toBe('<0.0001');
  });
});
