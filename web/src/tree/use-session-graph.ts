import { useMemo, useRef } from 'react';
import type { TreeNode } from '../../../shared/session-entries';
import type { TreeFilter } from '../graph/entry-kinds';
import { restyleForLeaf } from '../graph/leaf-restyle';
import { pathTo, sessionToGraph, type SessionGraph } from '../graph/session-to-graph';

/*
 * The derived graph of the open session. Every entry the active path went through while the page
 * showed the session stays unfolded (leaving a branch does not fold it under the user's eyes), so
 * a leaf move normally keeps the drawn shape and is a restyle of the nodes whose marks changed;
 * anything else (a new entry, a label, a filter, a fold opened) derives the graph afresh.
 */

interface Derivation {
  sessionId: string;
  tree: readonly TreeNode[];
  filter: TreeFilter;
  expanded: ReadonlySet<string>;
  graph: SessionGraph;
}

export function useSessionGraph(
  sessionId: string,
  tree: readonly TreeNode[],
  byId: ReadonlyMap<string, TreeNode>,
  leafId: string | null,
  filter: TreeFilter,
  expanded: ReadonlySet<string>,
): SessionGraph {
  const last = useRef<Derivation | null>(null);
  const keptOpen = useRef<{ sessionId: string; ids: Set<string> } | null>(null);

  return useMemo(() => {
    if (keptOpen.current?.sessionId !== sessionId)
      keptOpen.current = { sessionId, ids: new Set<string>() };
    const keepOpen = keptOpen.current.ids;
    const previous = last.current;
    let graph: SessionGraph | null = null;
    if (
      previous &&
      previous.sessionId === sessionId &&
      previous.tree === tree &&
      previous.filter === filter &&
      previous.expanded === expanded
    ) {
      graph = restyleForLeaf(previous.graph, byId, leafId);
      if (graph) for (const id of graph.activePath) keepOpen.add(id);
    }
    if (!graph) {
      for (const id of pathTo(byId, leafId)) keepOpen.add(id);
      graph = sessionToGraph(tree, { leafId, filter, expanded, keepOpen });
    }
    last.current = { sessionId, tree, filter, expanded, graph };
    return graph;
  }, [sessionId, tree, byId, leafId, filter, expanded]);
}
