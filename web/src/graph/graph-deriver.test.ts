import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../shared/session-entries';
import { TREE_FILTERS, type TreeFilter } from './entry-kinds';
import { GraphDeriver, type DerivationStep } from './graph-deriver';
import { growthOf } from './grow-graph';
import { extendPlacement, placementOf, structureKey, type Placement } from './placement';
import { sessionToGraph, type SessionGraph } from './session-to-graph';
import { layoutInputOf, layoutTree } from './tree-layout';
import { prng } from '../../../shared/prng';
import { node, randomTree, turn, type EntrySpec } from '../test-support/tree-builder';

/**
 * Everything a graph says, without its shape token (a fresh derivation always has a new one), as
 * text: a deep comparison of hundreds of graphs this size is too slow for a test run.
 */
function contents(graph: SessionGraph): string {
  const { shape, nodeOfEntry, childrenOf, ...rest } = graph;
  void shape;
  // Maps compare as sets of entries, whatever their order.
  const sorted = (map: Map<string, unknown>) => [...map].sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify({
    ...rest,
    nodeOfEntry: sorted(nodeOfEntry),
    childrenOf: sorted(childrenOf),
  });
}

function fullPlacement(graph: SessionGraph): Placement {
  const input = layoutInputOf(graph.nodes.map((n) => ({ id: n.id, parentId: n.data.parentId })));
  return placementOf(input, layoutTree(input), structureKey(input));
}

/** A placement as text (positions by id, bounds), for comparing. */
function layoutOf(placement: Placement): string {
  return JSON.stringify({
    at: [...placement.byId].sort(([a], [b]) => (a < b ? -1 : 1)),
    bounds: placement.bounds,
  });
}

/** A session the way the page sees it change: entries appended, leaf moves, labels. */
class Session {
  tree: TreeNode[];
  leafId: string | null;
  private next = 0;
  constructor(
    readonly random: () => number,
    seed: number,
  ) {
    this.tree = randomTree(seed, 30 + Math.floor(random() * 90));
    this.leafId = this.tree[this.tree.length - 1]!.id;
  }
  byId(): Map<string, TreeNode> {
    const map = new Map<string, TreeNode>();
    for (const entry of this.tree) if (!map.has(entry.id)) map.set(entry.id, entry);
    return map;
  }
  pick(): TreeNode {
    return this.tree[Math.floor(this.random() * this.tree.length)]!;
  }
  /** One new entry under the leaf, of a random kind; the leaf moves onto it. */
  append(): TreeNode[] {
    const r = this.random();
    const id = `n${this.next++}`;
    const spec: EntrySpec =
      r < 0.25
        ? { id, role: 'user' }
        : r < 0.45
          ? { id, role: 'assistant', toolCalls: 1 }
          : r < 0.6
            ? { id, role: 'toolResult' }
            : r < 0.72
              ? { id, role: 'assistant' }
              : r < 0.8
                ? { id, type: 'label' }
                : r < 0.85
                  ? { id, type: 'model_change' }
                  : r < 0.9
                    ? { id, type: 'custom_message' }
                    : r < 0.95
                      ? { id, role: 'user', label: 'pinned' }
                      : { id, type: 'custom', customType: 'arbor.leaf' };
    const entry = node(spec, this.leafId);
    this.tree = [...this.tree, entry];
    this.leafId = id;
    return [entry];
  }
  /** The label of a random entry set or cleared, as `label_changed` does, with its label entry. */
  label(withEntry: boolean): void {
    const target = this.pick();
    const updated: TreeNode = { ...target };
    if (target.label && this.random() < 0.5) delete updated.label;
    else updated.label = `l${this.next++}`;
    this.tree = this.tree.map((entry) => (entry === target ? updated : entry));
    if (withEntry) {
      const entry = node({ id: `n${this.next++}`, type: 'label' }, this.leafId);
      this.tree = [...this.tree, entry];
      this.leafId = entry.id;
    }
  }
}

const none: ReadonlySet<string> = new Set<string>();

describe('GraphDeriver', () => {
  it('grows the graph for an answer at the leaf and keeps the other nodes as they were', () => {
    const tree = [...turn(null, 'a', 1), ...turn('af', 'b', 1)];
    const deriver = new GraphDeriver();
    const before = deriver.derive(
      's',
      tree,
      new Map(tree.map((e) => [e.id, e])),
      'bf',
      'all',
      none,
    );
    const next = [...tree, node({ id: 'cu', role: 'user' }, 'bf')];
    const after = deriver.derive('s', next, new Map(next.map((e) => [e.id, e])), 'cu', 'all', none);
    expect(deriver.step).toBe('grow');
    expect(after.nodes.map((n) => n.id)).toEqual([...before.nodes.map((n) => n.id), 'cu']);
    expect(after.nodes[0]).toBe(before.nodes[0]);
    expect(after.leafNodeId).toBe('cu');
    expect(after.nodes.find((n) => n.id === 'bf')!.data.isLeaf).toBe(false);
    expect(growthOf(after.shape)?.added).toEqual([{ id: 'cu', parentId: 'bf' }]);
  });

  it('derives afresh when an appended entry is older than its siblings', () => {
    const tree = [...turn(null, 'a', 0)];
    const deriver = new GraphDeriver();
    deriver.derive('s', tree, new Map(tree.map((e) => [e.id, e])), 'af', 'all', none);
    const late: TreeNode = {
      ...node({ id: 'x', role: 'user' }, 'af'),
      timestamp: '2000-01-01T00:00:00.000Z',
    };
    const sibling = node({ id: 'y', role: 'user' }, 'af');
    const withSibling = [...tree, sibling];
    deriver.derive('s', withSibling, new Map(withSibling.map((e) => [e.id, e])), 'af', 'all', none);
    const next = [...withSibling, late];
    deriver.derive('s', next, new Map(next.map((e) => [e.id, e])), 'x', 'all', none);
    expect(deriver.step).toBe('derive');
  });

  it('draws after a live conversation with branches what a reload draws', () => {
    // Two turns with tools, a model change and a third turn, then a branch from the second prompt.
    const live = new GraphDeriver();
    let tree: TreeNode[] = [];
    let leaf: string | null = null;
    const show = (settle = false) =>
      live.derive('s', tree, new Map(tree.map((e) => [e.id, e])), leaf, 'all', none, settle);
    const grow = (entries: TreeNode[]): void => {
      for (const entry of entries) {
        tree = [...tree, entry];
        leaf = entry.id;
        show();
      }
    };
    grow(turn(null, 'a', 2));
    grow(turn('af', 'b', 2));
    grow([node({ id: 'm1', type: 'model_change' }, 'bf')]);
    grow(turn('m1', 'c', 1));
    // The user clicks prompt "b": the leaf moves to its parent at once, in the old shape.
    leaf = 'af';
    expect(show().nodeOfEntry.get('bt0')).toBe('bt0');
    expect(live.settled).toBe(false);
    grow(turn('af', 'd', 1));
    // Once the page is idle it settles the graph: the branch left behind folds.
    const settled = show(true);
    expect(live.settled).toBe(true);
    const reloaded = new GraphDeriver().derive(
      's',
      tree,
      new Map(tree.map((e) => [e.id, e])),
      leaf,
      'all',
      none,
    );
    expect(settled.nodes.length).toBe(reloaded.nodes.length);
    expect(contents(settled)).toBe(contents(reloaded));
    expect(settled.nodeOfEntry.get('bt0')).toBe('fold:ba0');
  });

  it('equals a fresh derivation, and its extended layout a fresh layout, over random sessions', () => {
    const steps: Record<DerivationStep, number> = {
      derive: 0,
      restyle: 0,
      interim: 0,
      grow: 0,
      relabel: 0,
    };
    let settles = 0;
    let extended = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const random = prng(seed * 7919);
      const session = new Session(random, seed);
      const deriver = new GraphDeriver(seed % 2 === 0 ? 4 : undefined);
      let filter: TreeFilter = 'all';
      let expanded: ReadonlySet<string> = new Set<string>();
      let placement: { shape: object; at: Placement; graph: SessionGraph } | null = null;
      for (let step = 0; step < 80; step++) {
        const r = random();
        if (r < 0.45) session.append();
        else if (r < 0.55) {
          session.append();
          session.append();
        } else if (r < 0.65) session.leafId = random() < 0.05 ? null : session.pick().id;
        else if (r < 0.73) {
          // A prompt that opens a branch, arriving with the leaf move in one update.
          session.leafId = session.pick().id;
          session.append();
        } else if (r < 0.8) session.label(random() < 0.7);
        else if (r < 0.83) filter = TREE_FILTERS[Math.floor(random() * TREE_FILTERS.length)]!;
        else if (r < 0.86) {
          const folds = placementFolds(placement);
          if (folds.length) expanded = new Set([...expanded, folds[0]!]);
        }
        // else: nothing changed (a re-render).
        const byId = session.byId();
        let graph = deriver.derive('s', session.tree, byId, session.leafId, filter, expanded);
        steps[deriver.step]++;
        if (!deriver.settled) {
          // An interim graph shows the new leaf and path drawn, each on its own.
          expect(graph.nodeOfEntry.get(graph.leafNodeId ?? '')).toBe(graph.leafNodeId ?? undefined);
          // The page settles it once idle; sometimes more changes come first.
          if (random() < 0.5) continue;
          graph = deriver.derive('s', session.tree, byId, session.leafId, filter, expanded, true);
          expect(deriver.settled).toBe(true);
          settles++;
        }
        const fresh = sessionToGraph(session.tree, {
          leafId: session.leafId,
          filter,
          expanded,
          ...(seed % 2 === 0 ? { segmentMinItems: 4 } : {}),
        });
        expect(contents(graph)).toBe(contents(fresh));

        const full = fullPlacement(graph);
        const growth = growthOf(graph.shape);
        const grown: Placement | null =
          growth && placement && growth.from.deref() === placement.shape
            ? extendPlacement(placement.at, growth.added)
            : null;
        if (grown) {
          extended++;
          expect(layoutOf(grown)).toBe(layoutOf(full));
        }
        placement = { shape: graph.shape, at: grown ?? full, graph };
      }
    }
    // The incremental paths are taken often enough for the comparison to mean something.
    expect(steps.grow).toBeGreaterThan(300);
    expect(steps.interim).toBeGreaterThan(20);
    expect(settles).toBeGreaterThan(10);
    expect(steps.relabel).toBeGreaterThan(10);
    expect(extended).toBeGreaterThan(100);
  });
});

function placementFolds(placement: { graph: SessionGraph } | null): string[] {
  if (!placement) return [];
  return placement.graph.nodes.filter((n) => n.data.item.kind !== 'entry').map((n) => n.id);
}
