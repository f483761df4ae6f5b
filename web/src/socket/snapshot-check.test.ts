import { describe, expect, it } from 'vitest';
import { SnapshotSchema } from '../../../shared/protocol';
import { parseSnapshot } from './snapshot-check';
import { snapshot, snapshotFrame } from '../test-support/snapshot-builder';
import { randomTree } from '../test-support/tree-builder';

/** A frame as it arrives: the server's snapshot through JSON. */
function received(tree = randomTree(3, 200)): Record<string, unknown> {
  return JSON.parse(JSON.stringify(snapshotFrame(tree, null))) as Record<string, unknown>;
}

describe('parseSnapshot', () => {
  it('gives the snapshot with its tree decoded, the rest as the zod schema reads it', () => {
    const tree = randomTree(3, 200);
    const frame = received(tree);
    const checked = parseSnapshot(frame);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.snapshot).toStrictEqual(snapshot(tree, null));
    const { tree: wire, ...rest } = SnapshotSchema.parse(frame);
    expect({ ...checked.snapshot, tree: wire }).toEqual({ ...rest, tree: wire });
  });

  it('refuses a snapshot whose tree does not decode and says why', () => {
    const frame = received();
    (frame.tree as { lengths: number[] }).lengths.push(3);
    const checked = parseSnapshot(frame);
    expect(checked).toEqual({
      ok: false,
      problem: expect.stringMatching(/^tree: "lengths" has \d+ items; \d+ previews need one$/),
    });
  });

  it('refuses a snapshot that carries the tree as a plain node list (protocol 1)', () => {
    const frame = { ...received(), tree: randomTree(3, 5) };
    expect(parseSnapshot(frame)).toEqual({ ok: false, problem: 'tree: the tree is not an object' });
  });

  it('refuses a snapshot whose other fields are malformed', () => {
    const frame = received([]);
    frame.seq = -1;
    const checked = parseSnapshot(frame);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.problem).toMatch(/^seq: /);
  });
});
