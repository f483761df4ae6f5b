import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../shared/session-entries';
import { TREE_FILTERS, type TreeFilter } from './entry-kinds';
import { restyleForLeaf } from './leaf-restyle';
import { pathTo, sessionToGraph, type SessionGraph } from './session-to-graph';
import { prng } from '../../../shared/prng';
import { randomTree, turn } from '../test-support/tree-builder';

/** What is drawn, in a form that compares: nodes with parents and marks, edges with classes. */
function drawing(graph: SessionGraph) {
  return {
    nodes: graph.nodes.map((n) => [n.id, n.data.parentId, n.data.onPath, n.data.isLeaf]),
    edges: graph.edges.map((e) => [e.id, e.className ?? '']),
    leaf: graph.leafNodeId,
    path: graph.activePath,
  };
}

function derive(tree: TreeNode[], leafId: string | null, filter: TreeFilter, open: string[]) {
  return sessionToGraph(tree, { leafId, filter, keepOpen: new Set(open), segmentMinItems: 4 });
}

describe('restyleForLeaf', () => {
  it('moves the leaf to a prompt’s parent without a new shape, reusing untouched nodes', () => {
    const tree = [...turn(null, 'a', 1), ...turn('af', 'b', 1), ...turn('bf', 'c', 1)];
    const byId = new Map(tree.map((e) => [e.id, e]));
    const before = derive(tree, 'cf', 'all', pathTo(byId, 'cf'));
    const after = restyleForLeaf(before, byId, 'bf', new Set(pathTo(byId, 'cf')))!;
    expect(after).not.toBeNull();
    expect(after.shape).toBe(before.shape);
    expect(after.leafNodeId).toBe('bf');
    expect(after.nodes.find((n) => n.id === 'cu')!.data.onPath).toBe(false);
    expect(after.nodes.find((n) => n.id === 'bf')!.data.isLeaf).toBe(true);
    expect(after.nodes.find((n) => n.id === 'au')).toBe(before.nodes.find((n) => n.id === 'au'));
    expect(after.edges.find((e) => e.id === 'bf->cu')!.className).toBeUndefined();
  });

  it('declines a move into a fold, so the caller derives the graph afresh', () => {
    const tree = [...turn(null, 'a'), ...turn('af', 'b', 2), ...turn('af', 'c')];
    const byId = new Map(tree.map((e) => [e.id, e]));
    const before = derive(tree, 'cf', 'all', pathTo(byId, 'cf'));
    expect(before.nodeOfEntry.get('bt0')).toBe('fold:ba0');
    expect(restyleForLeaf(before, byId, 'bt0', new Set(pathTo(byId, 'cf')))).toBeNull();
  });

  it('declines when the old leaf was drawn only for being the leaf', () => {
    const tree = [...turn(null, 'a', 1)];
    const byId = new Map(tree.map((e) => [e.id, e]));
    const before = derive(tree, 'at0', 'user-only', pathTo(byId, 'at0'));
    expect(before.leafNodeId).toBe('at0');
    expect(restyleForLeaf(before, byId, 'au', new Set(pathTo(byId, 'at0')))).toBeNull();
  });

  it('matches a fresh derivation that keeps both paths open, whenever it answers', () => {
    let answered = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const tree = randomTree(seed, 250);
      const byId = new Map(tree.map((e) => [e.id, e]));
      const random = prng(seed * 13);
      const at = () => tree[Math.floor(random() * tree.length)]!.id;
      for (const filter of TREE_FILTERS) {
        const from = at();
        const to = random() < 0.5 ? at() : (byId.get(from)!.parentId ?? null);
        const fromPath = pathTo(byId, from);
        const before = derive(tree, from, filter, fromPath);
        const restyled = restyleForLeaf(before, byId, to, new Set(fromPath));
        if (!restyled) continue;
        answered++;
        const fresh = derive(tree, to, filter, [...fromPath, ...pathTo(byId, to)]);
        expect(drawing(restyled)).toEqual(drawing(fresh));
      }
    }
    // Moves through entries never kept open derive afresh, so not every move answers.
    expect(answered).toBeGreaterThan(20);
  });
});
