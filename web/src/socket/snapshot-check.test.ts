import { describe, expect, it } from 'vitest';
import { SnapshotSchema } from '../../../shared/protocol';
import { TreeNodeSchema } from '../../../shared/session-entries';
import { parseSnapshot, parseTreeNode } from './snapshot-check';
import { snapshot } from '../test-support/snapshot-builder';
import { randomTree } from '../test-support/tree-builder';

const good = {
  id: 'a',
  parentId: null,
  type: 'message',
  role: 'assistant',
  preview: 'hi',
  label: 'mark',
  timestamp: '2026-01-01T00:00:00.000Z',
  toolCalls: 2,
  isError: false,
  customType: 'x',
};

/** Every way a node can be wrong in one field, plus a few that are not wrong. */
const variants: unknown[] = [
  good,
  { ...good, extra: 1 },
  { ...good, parentId: 'p' },
  { ...good, role: undefined, label: undefined, toolCalls: undefined },
  null,
  [],
  'node',
  ...Object.keys(good).flatMap((key) => [
    { ...good, [key]: undefined },
    { ...good, [key]: 7 },
    { ...good, [key]: 'text' },
    { ...good, [key]: null },
    { ...good, [key]: true },
  ]),
];

describe('parseTreeNode', () => {
  it('accepts and refuses exactly what TreeNodeSchema does, and gives what it gives', () => {
    for (const value of variants) {
      const byZod = TreeNodeSchema.safeParse(value);
      const byHand = parseTreeNode(value);
      expect(typeof byHand !== 'string', JSON.stringify(value)).toBe(byZod.success);
      if (byZod.success) expect(byHand).toEqual(byZod.data);
    }
  });
});

describe('parseSnapshot', () => {
  it('reads a snapshot as the zod schema does', () => {
    const frame = JSON.parse(JSON.stringify(snapshot(randomTree(3, 200), null)));
    const checked = parseSnapshot(frame);
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(checked.snapshot).toEqual(SnapshotSchema.parse(frame));
  });

  it('refuses a snapshot with a malformed tree node and says which', () => {
    const frame = JSON.parse(JSON.stringify(snapshot(randomTree(3, 20), null)));
    frame.tree[4].parentId = 12;
    expect(parseSnapshot(frame)).toEqual({
      ok: false,
      problem: 'tree node 4 has a "parentId" that is neither a string nor null',
    });
  });

  it('refuses a snapshot whose other fields are malformed', () => {
    const frame = JSON.parse(JSON.stringify(snapshot([], null)));
    frame.seq = -1;
    const checked = parseSnapshot(frame);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.problem).toMatch(/^seq: /);
  });
});
