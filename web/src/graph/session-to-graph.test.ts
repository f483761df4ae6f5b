import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../shared/session-entries';
import {
  sessionToGraph,
  describeItem,
  type GraphNode,
  type SessionGraph,
} from './session-to-graph';
import { isSettingsEntry, isUserLike, TREE_FILTERS } from './entry-kinds';
import { prng } from '../../../shared/prng';
import { chain, node, randomTree, turn } from '../test-support/tree-builder';

const ids = (nodes: GraphNode[]): string[] => nodes.map((n) => n.id);
const byId = (tree: TreeNode[]) => new Map(tree.map((e) => [e.id, e]));
const onPathIds = (graph: SessionGraph) =>
  new Set(graph.nodes.filter((n) => n.data.onPath).map((n) => n.id));

describe('sessionToGraph', () => {
  it('draws every entry of a linear session with the active path marked and the leaf current', () => {
    const tree = turn(null, 'one', 1);
    const graph = sessionToGraph(tree, { leafId: 'onef' });
    expect(ids(graph.nodes)).toEqual(['oneu', 'onea0', 'onet0', 'onef']);
    expect(graph.leafNodeId).toBe('onef');
    expect(graph.nodes.every((n) => n.data.onPath)).toBe(true);
    expect(graph.nodes.filter((n) => n.data.isLeaf).map((n) => n.id)).toEqual(['onef']);
    expect(graph.edges.map((e) => [e.source, e.target])).toEqual([
      ['oneu', 'onea0'],
      ['onea0', 'onet0'],
      ['onet0', 'onef'],
    ]);
  });

  it('folds the tool loop of a turn off the active path into one node and keeps its prompt', () => {
    const main = turn(null, 'm', 0);
    const side = turn('mf', 's', 2); // su, sa0, st0, sa1, st1, sf
    const next = turn('mf', 'n', 0);
    const graph = sessionToGraph([...main, ...side, ...next], { leafId: 'nf' });
    expect(ids(graph.nodes)).toEqual(['mu', 'mf', 'su', 'fold:sa0', 'nu', 'nf']);
    const fold = graph.nodes.find((n) => n.id === 'fold:sa0')!;
    expect(fold.data.item.kind).toBe('fold');
    expect(fold.data.item.kind === 'fold' && fold.data.item.members.map((m) => m.id)).toEqual([
      'sa0',
      'st0',
      'sa1',
      'st1',
      'sf',
    ]);
    expect(graph.nodeOfEntry.get('st1')).toBe('fold:sa0');
  });

  it('opens a fold the user expanded', () => {
    const tree = [...turn(null, 'm'), ...turn('mf', 's', 1), ...turn('mf', 'n')];
    const graph = sessionToGraph(tree, { leafId: 'nf', expanded: new Set(['fold:sa0']) });
    expect(ids(graph.nodes)).toContain('st0');
    expect(ids(graph.nodes)).not.toContain('fold:sa0');
  });

  it('never folds the active path, the leaf or a labelled entry', () => {
    const tree = [
      ...turn(null, 'm'),
      ...turn('mf', 's', 2),
      ...chain('mf', [{ id: 'nu', role: 'user' }]),
    ];
    const onPath = sessionToGraph(tree, { leafId: 'sf' });
    expect(onPath.nodes.some((n) => n.data.item.kind !== 'entry')).toBe(false);

    const leafInside = sessionToGraph(tree, { leafId: 'st0' });
    expect(ids(leafInside.nodes)).toContain('st0');
    expect(leafInside.leafNodeId).toBe('st0');

    const labelled = tree.map((e) => (e.id === 'st0' ? { ...e, label: 'keep' } : e));
    const graph = sessionToGraph(labelled, { leafId: 'nu' });
    expect(ids(graph.nodes)).toContain('st0');
    expect(graph.nodes.find((n) => n.id === 'st0')!.data.label).toBe('keep');
  });

  it('folds a long unbranched run of turns off the active path turn by turn, keeping every prompt', () => {
    const tree = [...turn(null, 'r')];
    let parent = 'rf';
    for (let i = 0; i < 8; i++) {
      tree.push(...turn(parent, `b${i}`, i % 2));
      tree.push(...chain(`b${i}f`, [{ id: `b${i}m`, type: 'branch_summary' }]));
      parent = `b${i}m`;
    }
    tree.push(...turn('rf', 'main'));
    const graph = sessionToGraph(tree, { leafId: 'mainf' });
    const drawn = ids(graph.nodes);
    for (let i = 0; i < 8; i++) {
      expect(drawn).toContain(`b${i}u`);
      expect(graph.nodeOfEntry.get(`b${i}m`)).toBe(`segment:${i % 2 ? `b${i}a0` : `b${i}f`}`);
    }
    expect(drawn.slice(0, 6)).toEqual(['ru', 'rf', 'b0u', 'segment:b0f', 'b1u', 'segment:b1a0']);
    const segment = graph.nodes.find((n) => n.id === 'segment:b1a0')!;
    expect(
      segment.data.item.kind === 'segment' && segment.data.item.members.map((m) => m.id),
    ).toEqual(['b1a0', 'b1t0', 'b1f', 'b1m']);
    expect(describeItem(segment.data.item)).toBe('segment: 4 entries of a turn: result 0');
    expect(graph.childrenOf.get('segment:b1a0')).toEqual(['b2u']);

    const opened = sessionToGraph(tree, { leafId: 'mainf', expanded: new Set(['segment:b1a0']) });
    expect(ids(opened.nodes)).toContain('b1m');
    expect(ids(opened.nodes)).toContain('fold:b1a0');
  });

  it('leaves a short run of turns off the active path to the tool-loop folds', () => {
    const tree = [
      ...turn(null, 'r'),
      ...turn('rf', 's', 1),
      ...turn('sf', 't'),
      ...turn('rf', 'm'),
    ];
    const graph = sessionToGraph(tree, { leafId: 'mf' });
    expect(ids(graph.nodes)).toEqual(['ru', 'rf', 'su', 'fold:sa0', 'tu', 'tf', 'mu', 'mf']);
  });

  it('hides label entries and Arbor leaf markers, drawing the leaf at the nearest shown entry', () => {
    const tree = chain(null, [
      { id: 'u1', role: 'user' },
      { id: 'a1', role: 'assistant' },
      { id: 'l1', type: 'label' },
      { id: 'k1', type: 'custom', customType: 'arbor.leaf' },
    ]);
    const graph = sessionToGraph(tree, { leafId: 'k1' });
    expect(ids(graph.nodes)).toEqual(['u1', 'a1']);
    expect(graph.leafNodeId).toBe('a1');
    expect(graph.activePath).toEqual(['u1', 'a1', 'l1', 'k1']);
  });

  it("folds pi 1.6's usage and virtual-model entries away and draws system messages and edits", () => {
    const tree = chain(null, [
      { id: 's1', role: 'system', preview: 'System: 1 section, 1 tool · preamble · +read' },
      { id: 'u1', role: 'user' },
      { id: 'g1', type: 'usage', preview: 'cache_warm: arbor/arbor-demo, 14 tokens' },
      { id: 'v1', type: 'custom', preview: 'pi.virtual-model-state' },
      { id: 'e1', type: 'context_edit', preview: 'Hidden from the context: u1' },
      { id: 'a1', role: 'assistant' },
    ]);
    const graph = sessionToGraph(tree, { leafId: 'a1' });
    expect(ids(graph.nodes)).toEqual(['s1', 'u1', 'e1', 'a1']);
  });

  it('shows other custom entries', () => {
    const tree = chain(null, [
      { id: 'u1', role: 'user' },
      { id: 'c1', type: 'custom', customType: 'extension-state' },
    ]);
    expect(ids(sessionToGraph(tree, { leafId: 'c1' }).nodes)).toEqual(['u1', 'c1']);
  });

  it('filters: no tools, user only, labelled — the leaf always stays', () => {
    const tree = [
      ...turn(null, 'm', 1),
      ...chain('mf', [{ id: 'x', role: 'user', label: 'mark' }]),
      ...chain('x', [{ id: 'y', role: 'assistant' }]),
    ];
    const noTools = sessionToGraph(tree, { leafId: 'y', filter: 'no-tools' });
    expect(ids(noTools.nodes)).toEqual(['mu', 'mf', 'x', 'y']);
    expect(noTools.edges.map((e) => e.id)).toContain('mu->mf');

    const userOnly = sessionToGraph(tree, { leafId: 'y', filter: 'user-only' });
    expect(ids(userOnly.nodes)).toEqual(['mu', 'x', 'y']);

    const labelled = sessionToGraph(tree, { leafId: 'y', filter: 'labelled' });
    expect(ids(labelled.nodes)).toEqual(['x', 'y']);
    expect(labelled.roots).toEqual(['x']);
  });

  it('keeps an assistant error in the no-tools view even with tool calls', () => {
    const tree = chain(null, [
      { id: 'u', role: 'user' },
      { id: 'e', role: 'assistant', toolCalls: 1, isError: true },
      { id: 'u2', role: 'user' },
    ]);
    expect(ids(sessionToGraph(tree, { leafId: 'u2', filter: 'no-tools' }).nodes)).toEqual([
      'u',
      'e',
      'u2',
    ]);
  });

  it('orders siblings oldest first and draws both branches of an edited prompt', () => {
    const base = turn(null, 'r');
    const first = turn('rf', 'p');
    const second = turn('rf', 'q');
    const graph = sessionToGraph([...base, ...second.slice().reverse(), ...first], {
      leafId: 'qf',
    });
    expect(graph.childrenOf.get('rf')).toEqual(['pu', 'qu']);
    expect(graph.nodes.find((n) => n.id === 'pu')!.data.onPath).toBe(false);
    expect(graph.nodes.find((n) => n.id === 'qu')!.data.onPath).toBe(true);
  });

  it('tolerates orphans, self-parents, duplicate ids and parent cycles without losing entries', () => {
    const tree = [
      node({ id: 'a', role: 'user' }, null),
      node({ id: 'b', role: 'assistant' }, 'missing'),
      node({ id: 'c', role: 'user' }, 'c'),
      node({ id: 'a', role: 'assistant', preview: 'duplicate' }, 'b'),
      node({ id: 'x', role: 'user' }, 'y'),
      node({ id: 'y', role: 'assistant' }, 'x'),
    ];
    const graph = sessionToGraph(tree, { leafId: 'y' });
    expect(ids(graph.nodes).sort()).toEqual(['a', 'b', 'c', 'x', 'y']);
    expect(graph.nodes.find((n) => n.id === 'a')!.data.item).toMatchObject({
      entry: { role: 'user' },
    });
    expect(graph.leafNodeId).toBe('y');
  });

  it('never hides a user message, the leaf or a drawn entry of the active path inside a fold', () => {
    let segments = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const tree = randomTree(seed, 300);
      const random = prng(seed * 7);
      const leafId = tree[Math.floor(random() * tree.length)]!.id;
      for (const filter of TREE_FILTERS) {
        const graph = sessionToGraph(tree, { leafId, filter, segmentMinItems: 4 });
        segments += graph.nodes.filter((n) => n.data.item.kind === 'segment').length;
        for (const entry of tree) {
          const drawnAt = graph.nodeOfEntry.get(entry.id);
          if (drawnAt === undefined) continue;
          if (isUserLike(entry)) expect(drawnAt).toBe(entry.id);
        }
        for (const id of graph.activePath) {
          const drawnAt = graph.nodeOfEntry.get(id);
          if (drawnAt === undefined) continue;
          // A settings change of the path is a mark: a chip on a path node, or a node of its own.
          if (isSettingsEntry(byId(tree).get(id)!))
            expect(
              drawnAt === id || drawnAt.startsWith('settings:') || onPathIds(graph).has(drawnAt),
            ).toBe(true);
          else expect(drawnAt).toBe(id);
        }
        if (graph.leafNodeId !== null && !graph.leafNodeId.startsWith('settings:'))
          expect(graph.nodeOfEntry.get(graph.leafNodeId)).toBe(graph.leafNodeId);
        for (const entry of tree)
          if (isUserLike(entry) && (filter === 'all' || filter === 'user-only'))
            expect(graph.nodeOfEntry.get(entry.id)).toBe(entry.id);
      }
    }
    expect(segments).toBeGreaterThan(100);
  });

  it('has no leaf for a null or unknown leaf id', () => {
    const tree = turn(null, 'm');
    expect(sessionToGraph(tree, { leafId: null }).leafNodeId).toBeNull();
    expect(sessionToGraph(tree, { leafId: 'nope' }).activePath).toEqual([]);
  });

  it('handles a 10,000-entry chain without recursion limits', () => {
    const specs = Array.from({ length: 10_000 }, (_, i) => ({
      id: `e${i}`,
      role: i % 2 ? 'assistant' : 'user',
    }));
    const graph = sessionToGraph(chain(null, specs), { leafId: 'e9999' });
    expect(graph.nodes).toHaveLength(10_000);
    expect(graph.leafNodeId).toBe('e9999');
  });
});
