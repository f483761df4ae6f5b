import { useEffect, useMemo, useRef, useState } from 'react';
import type { TreeNode } from '../../../shared/session-entries';
import type { TreeFilter } from '../graph/entry-kinds';
import { GraphDeriver } from '../graph/graph-deriver';
import type { SessionGraph } from '../graph/session-to-graph';

/*
 * The derived graph of the open session. A leaf move restyles the last graph, an entry appended
 * at the leaf or a label grows or relabels it, and anything else derives it afresh: see
 * `GraphDeriver`. A leaf move that folds the branch it leaves shows at once in the old shape; once
 * the page is idle the graph is settled (derived afresh), so it always comes to what a reload draws.
 */

/** How long an interim graph may wait for an idle moment before it is settled anyway. */
const SETTLE_WITHIN_MS = 400;

export function useSessionGraph(
  sessionId: string,
  tree: readonly TreeNode[],
  byId: ReadonlyMap<string, TreeNode>,
  leafId: string | null,
  filter: TreeFilter,
  expanded: ReadonlySet<string>,
): SessionGraph {
  const [deriver] = useState(() => new GraphDeriver());
  const [settleRound, setSettleRound] = useState(0);
  const settledRound = useRef(0);
  const graph = useMemo(() => {
    const settle = settleRound !== settledRound.current;
    settledRound.current = settleRound;
    return deriver.derive(sessionId, tree, byId, leafId, filter, expanded, settle);
  }, [deriver, sessionId, tree, byId, leafId, filter, expanded, settleRound]);
  const unsettled = !deriver.settled;
  useEffect(() => {
    if (!unsettled) return;
    const settle = (): void => setSettleRound((round) => round + 1);
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(settle, { timeout: SETTLE_WITHIN_MS });
      return () => cancelIdleCallback(handle);
    }
    const handle = setTimeout(settle, 50);
    return () => clearTimeout(handle);
  }, [graph, unsettled]);
  return graph;
}
