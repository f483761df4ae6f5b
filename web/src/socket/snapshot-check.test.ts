import { describe, expect, it } from 'vitest';
import { parseSnapshot } from './snapshot-check';
import { snapshot } from '../test-support/snapshot-builder';
import { randomTree } from '../test-support/tree-builder';

/** A frame as it arrives: the server's snapshot through JSON. */
function received(tree = randomTree(3, 200)): Record<string, unknown> {
  return JSON.parse(JSON.stringify(snapshot(tree, null))) as Record<string, unknown>;
}

describe('parseSnapshot', () => {
  it('gives the snapshot with its tree, as the zod schema reads it', () => {
    const tree = randomTree(3, 200);
    const checked = parseSnapshot(received(tree));
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.snapshot).toStrictEqual(snapshot(tree, null));
  });

  it('refuses a snapshot with a malformed node and says which', () => {
    const frame = received(randomTree(3, 10));
    (frame.tree as Record<string, unknown>[])[4]!.parentId = 7;
    expect(parseSnapshot(frame)).toEqual({
      ok: false,
      problem: expect.stringMatching(/^tree\.4\.parentId: /),
    });
  });

  it('refuses a snapshot that carries the tree in columns (protocol 2 and 3)', () => {
    const frame = { ...received(), tree: { v: 1, n: 0, ids: '', shapes: [], shape: '' } };
    const checked = parseSnapshot(frame);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.problem).toMatch(/^tree: /);
  });

  it('refuses a snapshot whose other fields are malformed', () => {
    const frame = received([]);
    frame.seq = -1;
    const checked = parseSnapshot(frame);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.problem).toMatch(/^seq: /);
  });
});
