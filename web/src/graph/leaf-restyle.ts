import type { TreeNode } from '../../../shared/session-entries';
import { isSettingsEntry, passesFilter } from './entry-kinds';
import { pathChangeKeepsFolds, standsAlone } from './fold-rules';
import { drawnLeafOf, edgeOf, pathTo, type GraphNode, type SessionGraph } from './session-to-graph';

/*
 * A leaf move that keeps the drawn shape costs no derivation and no layout: only the nodes and
 * edges whose active-path or leaf mark changed get new objects, every other object is reused (so
 * memoised node components and React Flow skip them).
 */

/**
 * How exact a restyle must be. `exact`: it equals a fresh derivation for the new leaf, so it
 * answers only when no entry that joins or leaves the active path takes part in folding
 * (`pathChangeKeepsFolds`). `interim`: it keeps the drawn shape for a leaf move that would fold or
 * unfold something (the branch left behind folds, as a reload would fold it), as long as the new
 * leaf and the new path are drawn; the caller derives the exact graph once the page is idle.
 */
export type RestyleMode = 'exact' | 'interim';

/**
 * The graph for `leafId` with the drawn shape kept, or null when it cannot be (see `RestyleMode`;
 * in either mode the new leaf must be drawn on its own and not be a settings change, whose run
 * ends at the leaf, and the old leaf must not have been drawn only for being the leaf), in which
 * case the caller derives the graph afresh.
 */
export function restyleForLeaf(
  graph: SessionGraph,
  byId: ReadonlyMap<string, TreeNode>,
  leafId: string | null,
  mode: RestyleMode = 'exact',
): SessionGraph | null {
  const activePath = pathTo(byId, leafId !== null && byId.has(leafId) ? leafId : null);
  const leafEntryId = drawnLeafOf(byId, activePath);
  const oldLeafId = graph.leafNodeId;

  if (leafEntryId !== null && graph.nodeOfEntry.get(leafEntryId) !== leafEntryId) return null;
  const onPath = new Set(activePath);
  const wasOnPath = new Set(graph.activePath);
  const changed = new Set<string>();
  for (const id of graph.activePath) if (!onPath.has(id)) changed.add(id);
  for (const id of activePath) if (!wasOnPath.has(id)) changed.add(id);
  for (const id of changed) {
    const entry = byId.get(id);
    if (!entry) return null;
    if (mode === 'exact' && !pathChangeKeepsFolds(entry)) return null;
    // The new path is never inside a tool-loop fold or a segment (its settings may be marks).
    const node = graph.nodeOfEntry.get(id);
    if (onPath.has(id) && node !== undefined && node !== id && !isSettingsEntry(entry)) return null;
  }
  for (const id of [leafEntryId, oldLeafId]) {
    const entry = id === null ? undefined : byId.get(id);
    if (id !== null && (!entry || !standsAlone(entry))) return null;
  }
  if (oldLeafId !== null && oldLeafId !== leafEntryId) {
    const oldLeaf = byId.get(oldLeafId);
    if (!oldLeaf || !passesFilter(oldLeaf, graph.filter)) return null;
  }

  if (oldLeafId !== null) changed.add(oldLeafId);
  if (leafEntryId !== null) changed.add(leafEntryId);

  const restyle = (node: GraphNode): GraphNode => {
    const isLeaf = node.id === leafEntryId;
    const nowOnPath = onPath.has(node.id);
    if (node.data.isLeaf === isLeaf && node.data.onPath === nowOnPath) return node;
    return { ...node, data: { ...node.data, isLeaf, onPath: nowOnPath } };
  };
  const nodes = graph.nodes.map((node) => (changed.has(node.id) ? restyle(node) : node));
  const edges = graph.edges.map((edge) => {
    if (!changed.has(edge.target)) return edge;
    const nowOnPath = onPath.has(edge.target);
    return (edge.className === 'on-path') === nowOnPath
      ? edge
      : edgeOf(edge.source, edge.target, nowOnPath);
  });
  return { ...graph, nodes, edges, activePath, leafNodeId: leafEntryId };
}
