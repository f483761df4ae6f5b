import { describe, expect, it } from 'vitest';
import { containsVerbatim, ensureLatestRequest, latestUserRequest } from './verbatim-requests.js';

describe('keeping the latest user request verbatim', () => {
  it('finds the newest user text, ignoring custom and summary messages', () => {
    expect(
      latestUserRequest([
        { role: 'user', content: 'first', timestamp: 1 },
        { role: 'user', content: [{ type: 'text', text: 'second' }], timestamp: 2 },
        { role: 'custom', customType: 'x', content: 'not a request', display: true, timestamp: 3 },
        { role: 'compactionSummary', summary: 's', tokensBefore: 1, timestamp: 4 },
      ]),
    ).toBe('second');
    expect(latestUserRequest([])).toBeUndefined();
  });

  it('leaves a summary alone when it quotes the request, even as a block quote', () => {
    const request = 'Rename foo to bar\nin src/a.ts and src/b.ts';
    const summary =
      '## Goal\nx\n\n## User Requests (verbatim)\n> Rename foo to bar\n> in src/a.ts and src/b.ts';
    expect(containsVerbatim(summary, request)).toBe(true);
    expect(ensureLatestRequest(summary, request, 5000)).toBe(summary);
  });

  it('appends the request when the model kept only its first line', () => {
    const request = 'Rename foo to bar\nin src/a.ts and src/b.ts';
    const summary = '## Goal\nThe user asked: "Rename foo to bar"';
    const out = ensureLatestRequest(summary, request, 5000);
    expect(out.startsWith(summary)).toBe(true);
    expect(out).toContain(
      '## Latest User Request (verbatim)\n> Rename foo to bar\n> in src/a.ts and src/b.ts',
    );
    expect(containsVerbatim(out, request)).toBe(true);
  });

  it('keeps the beginning and end of a very long request', () => {
    const request = `START ${'x'.repeat(10000)} FINISH`;
    const out = ensureLatestRequest('summary', request, 1000);
    expect(out).toContain('START');
    expect(out).toContain('FINISH');
    expect(out.length).toBeLessThan(1400);
  });
});
