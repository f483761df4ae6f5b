import { useEffect, useMemo, useState } from 'react';
import { RowIndex } from '../graph/row-index';
import { runLayout } from '../graph/run-layout';
import type { SessionGraph } from '../graph/session-to-graph';
import {
  layoutInputOf,
  layoutTree,
  NODE_WIDTH,
  WORKER_THRESHOLD,
  type LayoutInput,
  type LayoutResult,
} from '../graph/tree-layout';

/*
 * Positions of the drawn graph: inline for small graphs, in a worker for big ones, and reused
 * while the drawn shape is unchanged (a restyled graph keeps its shape; a fresh derivation of the
 * same shape is recognised by its structure key).
 */

export interface Placement {
  key: string;
  byId: Map<string, { x: number; y: number }>;
  index: RowIndex;
  /** The box around every node, in flow coordinates. */
  bounds: { x: number; y: number; width: number; height: number };
}

function structureKey(input: LayoutInput): string {
  let key = '';
  for (let i = 0; i < input.ids.length; i++) key += `${input.ids[i]}<${input.parents[i]};`;
  return key;
}

function placementOf(input: LayoutInput, result: LayoutResult, key: string): Placement {
  const byId = new Map<string, { x: number; y: number }>();
  let minX = Infinity;
  for (let i = 0; i < input.ids.length; i++) {
    const x = result.positions[i * 2]!;
    byId.set(input.ids[i]!, { x, y: result.positions[i * 2 + 1]! });
    if (x < minX) minX = x;
  }
  return {
    key,
    byId,
    index: new RowIndex(input.ids, result.positions),
    bounds: {
      x: Number.isFinite(minX) ? minX : 0,
      y: 0,
      width: Math.max(result.width, NODE_WIDTH),
      height: result.height,
    },
  };
}

export function useGraphLayout(graph: SessionGraph): Placement | null {
  const { shape } = graph;
  const nodes = graph.nodes;
  const input = useMemo(
    () => layoutInputOf(nodes.map((node) => ({ id: node.id, parentId: node.data.parentId }))),
    // The shape stands for the ids and parents of `nodes`: a restyle keeps both.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [shape],
  );
  const key = useMemo(() => structureKey(input), [input]);
  const [asyncPlacement, setAsyncPlacement] = useState<Placement | null>(null);
  const syncPlacement = useMemo(() => {
    if (input.ids.length > WORKER_THRESHOLD) return null;
    return placementOf(input, layoutTree(input), key);
  }, [input, key]);
  useEffect(() => {
    if (syncPlacement || asyncPlacement?.key === key) return;
    let live = true;
    void runLayout(input).then((result) => {
      if (live && result) setAsyncPlacement(placementOf(input, result, key));
    });
    return () => {
      live = false;
    };
  }, [input, key, syncPlacement, asyncPlacement]);
  return syncPlacement ?? asyncPlacement;
}
