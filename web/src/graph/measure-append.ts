import type { TreeNode } from '../../../shared/session-entries';
import { GraphDeriver } from './graph-deriver';
import { growthOf } from './grow-graph';
import { extendPlacement, placementOf, structureKey, type Placement } from './placement';
import { sessionToGraph, type SessionGraph } from './session-to-graph';
import { layoutInputOf, layoutTree } from './tree-layout';

/*
 * What one entry appended at the leaf costs the page's graph, by the full path (derive the graph,
 * lay it out, index the placement) and by the incremental one (grow the graph, extend the
 * placement), on a session shaped like bench/ui's: turns of prompt → tool call → tool result →
 * answer along a main line, a three-turn side branch every fifth turn. A measurement, not a test:
 *
 *   npx tsx web/src/graph/measure-append.ts [entries]
 */

const entries = Number(process.argv[2] ?? 10_000);
let clock = Date.parse('2026-03-01T09:00:00.000Z');
let nextId = 0;
const entry = (parentId: string | null, role: string, toolCalls?: number): TreeNode => {
  clock += 1000;
  const made: TreeNode = {
    id: `e${nextId++}`,
    parentId,
    type: 'message',
    role,
    preview: `${role} text`,
    timestamp: new Date(clock).toISOString(),
  };
  if (toolCalls !== undefined) made.toolCalls = toolCalls;
  return made;
};
const tree: TreeNode[] = [];
const turn = (parentId: string | null): string => {
  const user = entry(parentId, 'user');
  const call = entry(user.id, 'assistant', 1);
  const result = entry(call.id, 'toolResult');
  const answer = entry(result.id, 'assistant');
  tree.push(user, call, result, answer);
  return answer.id;
};
let tip: string | null = null;
for (let n = 0; tree.length < entries - 20; n++) {
  const before: string | null = tip;
  tip = turn(tip);
  if (n % 5 === 4 && before) {
    let side: string = before;
    for (let i = 0; i < 3; i++) side = turn(side);
  }
}
// The main line ends deepest, as it does in the long sessions this is about.
tip = turn(turn(tip));

function fullPlacement(graph: SessionGraph): Placement {
  const input = layoutInputOf(graph.nodes.map((n) => ({ id: n.id, parentId: n.data.parentId })));
  return placementOf(input, layoutTree(input), structureKey(input));
}

const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1]!;
const none = new Set<string>();
const deriver = new GraphDeriver();
let current = tree.slice();
let byId = new Map(current.map((e) => [e.id, e]));
let graph = deriver.derive('s', current, byId, tip, 'all', none);
let placement = fullPlacement(graph);
const full: number[] = [];
const fullDerive: number[] = [];
const incremental: number[] = [];
const grow: number[] = [];
for (let i = 0; i < 60; i++) {
  const next = entry(tip, i % 2 ? 'assistant' : 'toolResult', i % 2);
  current = [...current, next];
  byId = new Map(byId).set(next.id, next);
  tip = next.id;

  const t0 = performance.now();
  const fresh = sessionToGraph(current, { leafId: tip });
  const tDerived = performance.now();
  fullPlacement(fresh);
  const t1 = performance.now();
  graph = deriver.derive('s', current, byId, tip, 'all', none);
  const tGrown = performance.now();
  const growth = growthOf(graph.shape);
  const grown = growth ? extendPlacement(placement, growth.added) : null;
  const t2 = performance.now();
  if (deriver.step !== 'grow') throw new Error('the graph was derived afresh');
  if (!grown) throw new Error('the placement was not extended');
  placement = grown;
  if (i >= 10) {
    full.push(t1 - t0);
    fullDerive.push(tDerived - t0);
    incremental.push(t2 - t1);
    grow.push(tGrown - t1);
  }
}
console.log(
  `${current.length} entries, ${graph.nodes.length} drawn nodes; one entry appended at the leaf:`,
);
const ms = (values: number[]): string => `${median(values).toFixed(2)} ms`;
console.log(`  full:        ${ms(full)} (derivation ${ms(fullDerive)}, the rest layout)`);
console.log(`  incremental: ${ms(incremental)} (graph ${ms(grow)}, the rest placement)`);
