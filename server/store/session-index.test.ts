import { describe, expect, it } from 'vitest';
import { NO_ANCESTRY, SessionIndex, type EntryRecord } from './session-index.js';

/*
 * The index resolves parents as it is filled (most often the record just before) and by position
 * afterwards; these cases are the ones where that shortcut must give what a lookup by id gives:
 * ids that come twice, parents that come later, leaf markers, and lists asked for after appends.
 */

const TIME = '2026-01-02T03:04:05.000Z';

function record(id: string, parentId: string | null, marker = false, minute = 0): EntryRecord {
  const timestamp = `2026-01-02T03:${String(minute).padStart(2, '0')}:05.000Z`;
  return {
    id,
    parentId,
    type: marker ? 'custom' : 'message',
    role: marker ? undefined : 'user',
    node: {
      id,
      parentId,
      type: 'message',
      role: 'user',
      preview: id,
      timestamp: minute ? timestamp : TIME,
    },
    line: 0,
    offset: -1,
    length: 0,
    usable: true,
    marker,
    ...NO_ANCESTRY,
  };
}

function indexOf(records: EntryRecord[]): SessionIndex {
  const index = new SessionIndex();
  for (const r of records) index.add(r);
  index.finalize();
  return index;
}

const parents = (index: SessionIndex) =>
  Object.fromEntries(index.getTree().map((node) => [node.id, node.parentId]));

describe('the session index', () => {
  it('follows the last record of an id that came twice, as a lookup by id does', () => {
    // b's parent is the first "a"; a later line with the same id wins, as in pi.
    const index = indexOf([
      record('r', null),
      record('a', 'r'),
      record('b', 'a'),
      record('a', null),
    ]);
    expect(index.duplicateIds).toEqual(['a']);
    expect(index.getTree().map((node) => node.id)).toEqual(['r', 'a', 'b']);
    // The path from b goes through the last "a", a root: b is at depth 1, not 2.
    expect([...index.pathIdsDownTo('b', 0)]).toEqual(['b', 'a']);
    expect(index.byId.get('b')!.depth).toBe(1);
  });

  it('draws children of a leaf marker under the marker’s parent and hides the marker', () => {
    const index = indexOf([record('r', null), record('m', 'r', true), record('c', 'm')]);
    expect(parents(index)).toEqual({ r: null, c: 'r' });
    expect(index.getChildren('r').map((node) => node.id)).toEqual(['c']);
  });

  it('resolves parents written after their children, and orphans', () => {
    const index = indexOf([record('c', 'p'), record('p', null), record('o', 'gone')]);
    expect(parents(index)).toEqual({ c: 'p', p: null, o: null });
    expect(index.orphans).toEqual(['o']);
    expect([...index.pathIdsDownTo('c', 0)]).toEqual(['c', 'p']);
  });

  it('keeps child lists made on first use up to date as entries are appended', () => {
    const index = indexOf([record('r', null), record('a', 'r', false, 1)]);
    expect(index.getChildren('r').map((node) => node.id)).toEqual(['a']);
    index.add(record('b', 'r', false, 2));
    index.add(record('m', 'b', true));
    index.add(record('c', 'm', false, 3));
    expect(index.getChildren('r').map((node) => node.id)).toEqual(['a', 'b']);
    expect(index.getChildren('b').map((node) => node.id)).toEqual(['c']);
    expect([...index.pathIdsDownTo('c', 0)]).toEqual(['c', 'm', 'b', 'r']);
  });

  it('gives a labelled node as a copy with its label, the others as they are', () => {
    const index = indexOf([record('r', null), record('a', 'r')]);
    index.applyLabel('a', 'keep', TIME);
    const [root, labelled] = index.getTree();
    expect(labelled).toEqual({ ...index.byId.get('a')!.node, label: 'keep' });
    expect(index.byId.get('a')!.node).not.toHaveProperty('label');
    expect(root).toBe(index.byId.get('r')!.node);
  });
});
