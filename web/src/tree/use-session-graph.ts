import { useMemo, useState } from 'react';
import type { TreeNode } from '../../../shared/session-entries';
import type { TreeFilter } from '../graph/entry-kinds';
import { GraphDeriver } from '../graph/graph-deriver';
import type { SessionGraph } from '../graph/session-to-graph';

/*
 * The derived graph of the open session. A leaf move restyles the last graph, an entry appended
 * at the leaf or a label grows or relabels it, and anything else derives it afresh: see
 * `GraphDeriver`, which also keeps every entry the active path went through unfolded.
 */
export function useSessionGraph(
  sessionId: string,
  tree: readonly TreeNode[],
  byId: ReadonlyMap<string, TreeNode>,
  leafId: string | null,
  filter: TreeFilter,
  expanded: ReadonlySet<string>,
): SessionGraph {
  const [deriver] = useState(() => new GraphDeriver());
  return useMemo(
    () => deriver.derive(sessionId, tree, byId, leafId, filter, expanded),
    [deriver, sessionId, tree, byId, leafId, filter, expanded],
  );
}
