import { useEffect, useRef, type RefObject } from 'react';
import type { SessionGraph } from '../graph/session-to-graph';
import { markRevealed, unmarkRevealed } from '../state/entry-reveal';
import { usePage } from '../state/use-page-store';
import type { Placement } from './use-graph-layout';

/**
 * Answers a request to show an entry (entry-reveal.ts) in the graph, without moving the leaf:
 * opens the fold that hides it, centres the view on its node, gives it the keyboard focus of the
 * tree and marks it. Works for any entry, on the active path or not.
 */
export function useEntryReveal(opts: {
  sessionId: string;
  graph: SessionGraph;
  placement: Placement | null;
  canvas: RefObject<HTMLDivElement | null>;
  setExpanded(update: (open: ReadonlySet<string>) => ReadonlySet<string>): void;
  centerOn(nodeId: string, animate: boolean): void;
  setFocusedId(nodeId: string): void;
}): void {
  const { sessionId, graph, placement, canvas, setExpanded, centerOn, setFocusedId } = opts;
  const request = usePage((state) => state.reveal);
  const answered = useRef(0);
  useEffect(() => {
    if (!request) {
      if (canvas.current) unmarkRevealed(canvas.current);
      return;
    }
    if (request.sessionId !== sessionId || answered.current === request.seq) return;
    const nodeId = graph.nodeOfEntry.get(request.entryId);
    if (!nodeId || !placement) return;
    if (nodeId !== request.entryId) {
      // Folded away: open the fold, and answer once the entry has a node of its own.
      setExpanded((open) => new Set(open).add(nodeId));
      return;
    }
    if (!placement.byId.has(nodeId)) return;
    answered.current = request.seq;
    setFocusedId(nodeId);
    centerOn(nodeId, false);
    // The node mounts once the view has moved to it: mark it when it is there.
    let tries = 0;
    const mark = (): void => {
      const root = canvas.current;
      const selector = `.react-flow__node[data-id="${CSS.escape(nodeId)}"] [data-entry-id]`;
      if (root && markRevealed(root, selector)) return;
      if (++tries < 20) requestAnimationFrame(mark);
    };
    requestAnimationFrame(mark);
  });
}
