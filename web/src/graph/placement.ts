import type { ShapeGrowth } from './grow-graph';
import { NODE_HEIGHT, NODE_WIDTH, V_GAP, type LayoutInput, type LayoutResult } from './tree-layout';

/*
 * Where the drawn nodes sit: the tidy-tree layout's positions by node id and their bounds. A placement is either made from a layout run or extended from the previous
 * one when the shape only grew at its deepest row (see `extendPlacement`).
 */

export interface Placement {
  /** The structure key of the layout input it was computed for; null when extended. */
  key: string | null;
  byId: Map<string, { x: number; y: number }>;
  /** The box around every node, in flow coordinates. */
  bounds: { x: number; y: number; width: number; height: number };
}

/** Stands for the ids and parents of a layout input: equal keys, equal layouts. */
export function structureKey(input: LayoutInput): string {
  let key = '';
  for (let i = 0; i < input.ids.length; i++) key += `${input.ids[i]}<${input.parents[i]};`;
  return key;
}

export function placementOf(input: LayoutInput, result: LayoutResult, key: string): Placement {
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
    bounds: {
      x: Number.isFinite(minX) ? minX : 0,
      y: 0,
      width: Math.max(result.width, NODE_WIDTH),
      height: result.height,
    },
  };
}

/**
 * The placement of a shape that grew from `placement`'s by `added`, or null when a layout run is
 * needed. Answers when each added node hangs under a node of the deepest row: the tidy tree then
 * puts it straight below its (so far childless) parent and moves nothing else, because no other
 * node shares its row or anything below, so no contour comparison ever reaches it. A property test
 * holds this equal to a layout of the whole shape.
 */
export function extendPlacement(
  placement: Placement,
  added: ShapeGrowth['added'],
): Placement | null {
  if (added.length === 0) return placement;
  const { byId } = placement;
  let height = placement.bounds.height;
  const placed = new Map<string, { x: number; y: number }>();
  for (const { id, parentId } of added) {
    const parent = placed.get(parentId) ?? byId.get(parentId);
    if (!parent || parent.y !== height - NODE_HEIGHT) return null;
    const y = parent.y + NODE_HEIGHT + V_GAP;
    // Extending the same placement twice (a render done over) finds its own work.
    const already = byId.get(id);
    if (already && (already.x !== parent.x || already.y !== y)) return null;
    placed.set(id, already ?? { x: parent.x, y });
    height = y + NODE_HEIGHT;
  }
  // Updated in place, not copied (milliseconds on a big session): the shorter placement is
  // superseded, and a position for a node it does not draw changes nothing it shows.
  for (const [id, at] of placed) byId.set(id, at);
  return { key: null, byId, bounds: { ...placement.bounds, height } };
}
