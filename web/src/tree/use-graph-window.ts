import { useEffect, useMemo, useRef, useState } from 'react';
import { useStoreApi } from '@xyflow/react';
import { contains, grow, type Rect } from '../graph/row-index';
import type { SessionGraph } from '../graph/session-to-graph';
import type { Placement } from './use-graph-layout';

/*
 * Virtualises the graph above React Flow: a big graph hands React Flow only the nodes inside a
 * window around the viewport (plus their parents and children, so every edge that crosses the
 * view is drawn), found through the layout's row index. The window is the viewport grown by a
 * margin and only moves when the viewport leaves it, so panning re-renders now and then, not on
 * every frame. Small graphs are handed over whole (the minimap needs them).
 */

/** Graphs with more drawn nodes than this are virtualised (and drawn without a minimap). */
export const FULL_DRAW_LIMIT = 1500;

/** How far the window reaches past the viewport on each side, in viewports. */
const MARGIN = 0.75;

/** The window before the canvas has a size: this far around the leaf, in flow pixels. */
const FIRST_REACH = 1600;

/**
 * `?graph-window=off` in the page's URL hands React Flow the whole graph, leaving only its own
 * `onlyRenderVisibleElements`: the switch bench/ui compares the two with (decision 091). It is
 * harmless: the graph drawn is the same, only its work is React Flow's alone.
 */
function windowSwitchedOff(): boolean {
  return (
    typeof window !== 'undefined' &&
    new URLSearchParams(window.location.search).get('graph-window') === 'off'
  );
}

function viewportRect(state: {
  transform: [number, number, number];
  width: number;
  height: number;
}): Rect | null {
  const [x, y, zoom] = state.transform;
  if (!state.width || !state.height || !zoom) return null;
  return {
    x0: -x / zoom,
    y0: -y / zoom,
    x1: (state.width - x) / zoom,
    y1: (state.height - y) / zoom,
  };
}

/**
 * Ids of the nodes to hand React Flow, or null for all of them. `pinned` ids (the leaf, the node
 * keyboard focus is on) are always included so they can be focused and centred on.
 */
export function useGraphWindow(
  graph: SessionGraph,
  placement: Placement | null,
  pinned: readonly (string | null)[],
): Set<string> | null {
  const store = useStoreApi();
  const [switchedOff] = useState(windowSwitchedOff);
  const big = graph.nodes.length > FULL_DRAW_LIMIT && !switchedOff;
  const [area, setArea] = useState<Rect | null>(null);

  useEffect(() => {
    if (!big) return;
    const check = (): void => {
      const view = viewportRect(store.getState());
      if (!view) return;
      setArea((current) => (current && contains(current, view) ? current : grow(view, MARGIN)));
    };
    check();
    return store.subscribe(check);
  }, [store, big]);

  const anchor = graph.leafNodeId ?? graph.roots[0] ?? null;
  const pinnedKey = pinned.join('\n');
  // The same set (object) while its members are the same, so that what depends on it stays put.
  const previous = useRef<Set<string> | null>(null);
  const ids = useMemo(() => {
    if (!big || !placement) return null;
    let rect = area;
    if (!rect) {
      const at = anchor ? placement.byId.get(anchor) : undefined;
      const x = at?.x ?? 0;
      const y = at?.y ?? 0;
      rect = { x0: x - FIRST_REACH, y0: y - FIRST_REACH, x1: x + FIRST_REACH, y1: y + FIRST_REACH };
    }
    const ids = new Set<string>();
    const parentOf = new Map<string, string | null>();
    for (const node of graph.nodes) parentOf.set(node.id, node.data.parentId);
    for (const id of placement.index.query(rect)) {
      if (!parentOf.has(id)) continue;
      ids.add(id);
      const parent = parentOf.get(id);
      if (parent) ids.add(parent);
      for (const child of graph.childrenOf.get(id) ?? []) ids.add(child);
    }
    for (const id of pinnedKey.split('\n')) if (id && parentOf.has(id)) ids.add(id);
    return ids;
  }, [big, placement, area, anchor, graph, pinnedKey]);
  const last = previous.current;
  if (ids && last && ids.size === last.size && [...ids].every((id) => last.has(id))) return last;
  previous.current = ids;
  return ids;
}
