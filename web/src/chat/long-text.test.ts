import { describe, expect, it } from 'vitest';
import { FOLD_HEAD_CHARS, foldedHead, LONG_RUN_CHARS, splitLongRuns } from './long-text';

describe('splitLongRuns', () => {
  it('leaves ordinary text whole', () => {
    expect(splitLongRuns('a few words')).toEqual([{ text: 'a few words', long: false }]);
  });

  it('sets long runs apart and gives the text back when joined', () => {
    const run = 'A'.repeat(LONG_RUN_CHARS + 5);
    const text = `before ${run}\nafter ${run}`;
    const pieces = splitLongRuns(text);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
    expect(pieces.filter((p) => p.long).map((p) => p.text)).toEqual([run, run]);
    expect(pieces[0]).toEqual({ text: 'before ', long: false });
  });

  it('takes a text that is one run as one long piece', () => {
    const run = 'x'.repeat(1_000_000);
    expect(splitLongRuns(run)).toEqual([{ text: run, long: true }]);
  });
});

describe('foldedHead', () => {
  it('keeps the first characters and never half a surrogate pair', () => {
    expect(foldedHead('A'.repeat(5_000))).toHaveLength(FOLD_HEAD_CHARS);
    const emoji = `${'a'.repeat(FOLD_HEAD_CHARS - 1)}😀tail`;
    expect(foldedHead(emoji)).toBe('a'.repeat(FOLD_HEAD_CHARS - 1));
  });
});
