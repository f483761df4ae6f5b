import { describe, expect, it } from 'vitest';
import { sessionToGraph, type GraphNode } from './session-to-graph';
import { chain, turn } from '../test-support/tree-builder';

const ids = (nodes: GraphNode[]): string[] => nodes.map((n) => n.id);

/** Three models and two thinking levels tried after the first answer, then the next prompt. */
function triedSettings() {
  return [
    ...turn(null, 'a', 1),
    ...chain('af', [
      { id: 'm1', type: 'model_change', preview: 'openai/gpt-4o' },
      { id: 'm2', type: 'model_change', preview: 'openai/gpt-4.1' },
      { id: 't1', type: 'thinking_level_change', preview: 'high' },
      { id: 'm3', type: 'model_change', preview: 'arbor/arbor-demo' },
      { id: 't2', type: 'thinking_level_change', preview: 'low' },
    ]),
  ];
}

describe('settings marks', () => {
  it('folds a run of settings changes into a chip on the prompt that follows', () => {
    const tree = [...triedSettings(), ...chain('t2', [{ id: 'bu', role: 'user' }])];
    const graph = sessionToGraph(tree, { leafId: 'bu' });
    expect(ids(graph.nodes)).toEqual(['au', 'aa0', 'at0', 'af', 'bu']);
    const prompt = graph.nodes.find((n) => n.id === 'bu')!;
    expect(prompt.data.parentId).toBe('af');
    expect(
      prompt.data.item.kind === 'entry' && prompt.data.item.settings?.map((e) => e.id),
    ).toEqual(['m1', 'm2', 't1', 'm3', 't2']);
    for (const id of ['m1', 'm2', 't1', 'm3', 't2']) expect(graph.nodeOfEntry.get(id)).toBe('bu');
    expect(graph.activePath).toContain('m3');
  });

  it('draws a run at the leaf as one mark node, which is the leaf', () => {
    const graph = sessionToGraph(triedSettings(), { leafId: 't2' });
    expect(ids(graph.nodes)).toEqual(['au', 'aa0', 'at0', 'af', 'settings:m1']);
    expect(graph.leafNodeId).toBe('settings:m1');
    const mark = graph.nodes.find((n) => n.id === 'settings:m1')!;
    expect(mark.type).toBe('settings');
    expect(mark.data.onPath).toBe(true);
  });

  it('ends a run at the leaf, and folds the rest into the next node', () => {
    const tree = [...triedSettings(), ...chain('t2', [{ id: 'bu', role: 'user' }])];
    const graph = sessionToGraph(tree, { leafId: 't1' });
    expect(ids(graph.nodes)).toEqual(['au', 'aa0', 'at0', 'af', 'settings:m1', 'bu']);
    expect(graph.leafNodeId).toBe('settings:m1');
    const prompt = graph.nodes.find((n) => n.id === 'bu')!;
    expect(
      prompt.data.item.kind === 'entry' && prompt.data.item.settings?.map((e) => e.id),
    ).toEqual(['m3', 't2']);
  });

  it('opens a mark into its entries, each a node to continue from', () => {
    const tree = [...triedSettings(), ...chain('t2', [{ id: 'bu', role: 'user' }])];
    const graph = sessionToGraph(tree, { leafId: 'bu', expanded: new Set(['settings:m1']) });
    expect(ids(graph.nodes)).toEqual([
      'au',
      'aa0',
      'at0',
      'af',
      'm1',
      'm2',
      't1',
      'm3',
      't2',
      'bu',
    ]);
    // Continuing from one of them keeps the opened run open.
    const moved = sessionToGraph(tree, { leafId: 'm2', expanded: new Set(['settings:m1']) });
    expect(moved.leafNodeId).toBe('m2');
    expect(ids(moved.nodes)).toEqual(ids(graph.nodes));
    // A piece after the leaf opens on its own.
    const split = sessionToGraph(tree, { leafId: 't1', expanded: new Set(['settings:m3']) });
    expect(ids(split.nodes)).toEqual(['au', 'aa0', 'at0', 'af', 'settings:m1', 'm3', 't2', 'bu']);
  });

  it('keeps a branch that starts at a settings change as a mark node with both prompts under it', () => {
    const tree = [
      ...triedSettings(),
      ...chain('t2', [{ id: 'bu', role: 'user' }]),
      ...chain('t2', [{ id: 'cu', role: 'user' }]),
    ];
    const graph = sessionToGraph(tree, { leafId: 'cu' });
    expect(ids(graph.nodes)).toEqual(['au', 'aa0', 'at0', 'af', 'settings:m1', 'bu', 'cu']);
    expect(graph.childrenOf.get('settings:m1')).toEqual(['bu', 'cu']);
  });

  it('never takes a prompt or a labelled change into a mark', () => {
    const tree = [
      ...turn(null, 'a'),
      ...chain('af', [
        { id: 'm1', type: 'model_change' },
        { id: 'n1', type: 'session_info', label: 'named' },
        { id: 't1', type: 'thinking_level_change' },
        { id: 'bu', role: 'user' },
        { id: 'm2', type: 'model_change' },
        { id: 'cu', role: 'user' },
      ]),
    ];
    const graph = sessionToGraph(tree, { leafId: 'cu' });
    expect(ids(graph.nodes)).toEqual(['au', 'af', 'n1', 'bu', 'cu']);
    expect(graph.nodeOfEntry.get('m1')).toBe('n1');
    expect(graph.nodeOfEntry.get('t1')).toBe('bu');
    expect(graph.nodeOfEntry.get('m2')).toBe('cu');
  });
});
