import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../shared/session-entries';
import { TREE_FILTERS, type TreeFilter } from './entry-kinds';
import { restyleForLeaf } from './leaf-restyle';
import { sessionToGraph, type SessionGraph } from './session-to-graph';
import { prng } from '../../../shared/prng';
import { chain, randomTree, turn } from '../test-support/tree-builder';

/** What is drawn, in a form that compares: nodes with parents and marks, edges with classes. */
function drawing(graph: SessionGraph) {
  return {
    nodes: graph.nodes.map((n) => [n.id, n.data.parentId, n.data.onPath, n.data.isLeaf]),
    edges: graph.edges.map((e) => [e.id, e.className ?? '']),
    leaf: graph.leafNodeId,
    path: graph.activePath,
  };
}

function derive(tree: TreeNode[], leafId: string | null, filter: TreeFilter) {
  return sessionToGraph(tree, { leafId, filter, segmentMinItems: 4 });
}

describe('restyleForLeaf', () => {
  it('moves the leaf past labelled entries without a new shape, reusing untouched nodes', () => {
    const tree = [
      ...turn(null, 'a', 1),
      ...chain('af', [
        { id: 'bu', role: 'user', label: 'one' },
        { id: 'bf', role: 'assistant', label: 'two' },
      ]),
    ];
    const byId = new Map(tree.map((e) => [e.id, e]));
    const before = derive(tree, 'bf', 'all');
    const after = restyleForLeaf(before, byId, 'af')!;
    expect(after).not.toBeNull();
    expect(after.shape).toBe(before.shape);
    expect(after.leafNodeId).toBe('af');
    expect(after.nodes.find((n) => n.id === 'bu')!.data.onPath).toBe(false);
    expect(after.nodes.find((n) => n.id === 'af')!.data.isLeaf).toBe(true);
    expect(after.nodes.find((n) => n.id === 'au')).toBe(before.nodes.find((n) => n.id === 'au'));
    expect(after.edges.find((e) => e.id === 'af->bu')!.className).toBeUndefined();
  });

  it('declines a move that leaves a tool loop, which then folds as a reload would fold it', () => {
    const tree = [...turn(null, 'a'), ...turn('af', 'b', 2)];
    const byId = new Map(tree.map((e) => [e.id, e]));
    const before = derive(tree, 'bf', 'all');
    expect(restyleForLeaf(before, byId, 'af')).toBeNull();
    expect(derive(tree, 'af', 'all').nodeOfEntry.get('bt0')).toBe('fold:ba0');
  });

  it('declines a move into a fold, so the caller derives the graph afresh', () => {
    const tree = [...turn(null, 'a'), ...turn('af', 'b', 2), ...turn('af', 'c')];
    const byId = new Map(tree.map((e) => [e.id, e]));
    const before = derive(tree, 'cf', 'all');
    expect(before.nodeOfEntry.get('bt0')).toBe('fold:ba0');
    expect(restyleForLeaf(before, byId, 'bt0')).toBeNull();
  });

  it('declines when the old leaf was drawn only for being the leaf', () => {
    const tree = [...turn(null, 'a', 1)];
    const byId = new Map(tree.map((e) => [e.id, e]));
    const before = derive(tree, 'at0', 'user-only');
    expect(before.leafNodeId).toBe('at0');
    expect(restyleForLeaf(before, byId, 'au')).toBeNull();
  });

  it('matches a fresh derivation for the new leaf, whenever it answers', () => {
    let answered = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const tree = randomTree(seed, 250);
      const byId = new Map(tree.map((e) => [e.id, e]));
      const random = prng(seed * 13);
      const at = () => tree[Math.floor(random() * tree.length)]!.id;
      for (const filter of [...TREE_FILTERS, ...TREE_FILTERS, ...TREE_FILTERS]) {
        const from = at();
        const to = random() < 0.5 ? at() : (byId.get(from)!.parentId ?? null);
        const before = derive(tree, from, filter);
        const restyled = restyleForLeaf(before, byId, to);
        if (!restyled) continue;
        answered++;
        const fresh = derive(tree, to, filter);
        expect(drawing(restyled)).toEqual(drawing(fresh));
      }
    }
    // Moves across entries that take part in folding derive afresh, so few moves answer.
    expect(answered).toBeGreaterThan(5);
  });
});
