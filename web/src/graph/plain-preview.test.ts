import { describe, expect, it } from 'vitest';
import { plainPreview } from './plain-preview';

describe('a node’s text as plain words', () => {
  it.each([
    ['Tool results: - ls: "README.md"', 'Tool results: ls: "README.md"'],
    ['# Plan **Soil** first, then *seeds*', 'Plan Soil first, then seeds'],
    ['Run `npm test` and see [the docs](https://x.dev/a)', 'Run npm test and see the docs'],
    ['Steps: 1. dig 2. sow', 'Steps: dig 2. sow'],
    ['```ts const a = 1; ```', 'const a = 1;'],
    ['| a | b | |---|---|', 'a b'],
    ['> quoted words', 'quoted words'],
    ['snake_case_name and 3 * 4 = 12 - 1', 'snake_case_name and 3 * 4 = 12 - 1'],
  ])('%s', (markdown, plain) => {
    expect(plainPreview(markdown)).toBe(plain);
  });
});
