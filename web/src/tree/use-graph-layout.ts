import { useEffect, useMemo, useState } from 'react';
import { growthOf } from '../graph/grow-graph';
import { extendPlacement, placementOf, structureKey, type Placement } from '../graph/placement';
import { runLayout } from '../graph/run-layout';
import type { SessionGraph } from '../graph/session-to-graph';
import { layoutInputOf, layoutTree, WORKER_THRESHOLD } from '../graph/tree-layout';

/*
 * Positions of the drawn graph: inline for small graphs, in a worker for big ones, and reused
 * while the drawn shape is unchanged (a restyled graph keeps its shape; a fresh derivation of the
 * same shape is recognised by its structure key). A shape that grew at its deepest row (an answer
 * streaming at the tip of the deepest branch) extends the last placement instead of a layout run.
 */

export type { Placement } from '../graph/placement';

/** The placement made for each shape, while the shape lives. */
const placed = new WeakMap<object, Placement>();

export function useGraphLayout(graph: SessionGraph): Placement | null {
  const { shape } = graph;
  const nodes = graph.nodes;
  const grown = useMemo(() => {
    const growth = growthOf(shape);
    const from = growth?.from.deref();
    const before = from ? placed.get(from) : undefined;
    return growth && before ? extendPlacement(before, growth.added) : null;
  }, [shape]);
  const input = useMemo(
    () =>
      grown
        ? null
        : layoutInputOf(nodes.map((node) => ({ id: node.id, parentId: node.data.parentId }))),
    // The shape stands for the ids and parents of `nodes`: a restyle keeps both.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [shape, grown],
  );
  const key = useMemo(() => (input ? structureKey(input) : null), [input]);
  const [asyncPlacement, setAsyncPlacement] = useState<Placement | null>(null);
  const syncPlacement = useMemo(() => {
    if (!input || key === null || input.ids.length > WORKER_THRESHOLD) return null;
    return placementOf(input, layoutTree(input), key);
  }, [input, key]);
  useEffect(() => {
    if (!input || key === null || syncPlacement || asyncPlacement?.key === key) return;
    let live = true;
    void runLayout(input).then((result) => {
      if (live && result) setAsyncPlacement(placementOf(input, result, key));
    });
    return () => {
      live = false;
    };
  }, [input, key, syncPlacement, asyncPlacement]);
  const current =
    grown ?? syncPlacement ?? (asyncPlacement?.key === key ? asyncPlacement : null) ?? null;
  if (current) placed.set(shape, current);
  // While a layout runs, the last one stands in: extended placements never move a node it
  // placed, and nodes it lacks wait for the layout.
  return current ?? asyncPlacement;
}
