import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyScore } from './fuzzy-filter';

/*
 * The `/` menu matches as pi's editor does: the same items, in the same order, as pi 1.6's own
 * fuzzyFilter (pi-tui, installed as the tests' oracle) for a table of names and queries.
 */

const PI_FUZZY = path.resolve('oracles/pi16/node_modules/@earendil-works/pi-tui/dist/fuzzy.js');

interface PiFuzzy {
  fuzzyFilter<T>(items: T[], query: string, getText: (item: T) => string): T[];
}

const NAMES = [
  'review',
  'review-pr',
  'fix-tests',
  'skill:pdf-tools',
  'skill:code-review',
  'explain',
  'release-notes',
  'v2-migrate',
  'refactor',
  'x',
];

const QUERIES = [
  '',
  're',
  'rev',
  'rvw',
  'pr',
  'fix',
  'skill',
  'sk:pdf',
  'code rev',
  'x',
  '2v',
  'zz',
  'REL',
  'f/t',
];

describe('fuzzyFilter', () => {
  it.each(QUERIES)('orders the names as pi 1.6 does for %j', async (query) => {
    const pi = (await import(pathToFileURL(PI_FUZZY).href)) as PiFuzzy;
    const ours = fuzzyFilter(NAMES, query, (name) => name);
    expect(ours).toEqual(pi.fuzzyFilter([...NAMES], query, (name) => name));
  });

  it('needs every character of the query, in order', () => {
    expect(fuzzyScore('rvw', 'review')).not.toBeNull();
    expect(fuzzyScore('wvr', 'review')).toBeNull();
    expect(fuzzyScore('reviews', 'review')).toBeNull();
  });

  it('puts the exact name first', () => {
    expect(fuzzyFilter(['review-pr', 'review'], 'review', (name) => name)).toEqual([
      'review',
      'review-pr',
    ]);
  });
});
