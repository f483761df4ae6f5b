import { hierarchy, tree } from 'd3-hierarchy';

/*
 * Tidy-tree layout (Reingold–Tilford as d3-hierarchy implements it, linear time) of the drawn
 * graph. The input is flat and structured-clone friendly so that the same function runs in a
 * Web Worker for big trees and inline for small ones.
 */

export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 52;
export const H_GAP = 24;
export const V_GAP = 28;

/** Above this many nodes the layout runs in a worker so the page stays responsive. */
export const WORKER_THRESHOLD = 1500;

export interface LayoutInput {
  /** Node ids in pre-order (parents before children, siblings in drawing order). */
  ids: string[];
  /** Index into `ids` of each node's parent, -1 for a root. */
  parents: Int32Array | number[];
}

export interface LayoutResult {
  /** x, y of each node's top-left corner, in the order of `ids`: [x0, y0, x1, y1, …]. */
  positions: Float64Array;
  width: number;
  height: number;
}

interface LayoutDatum {
  index: number;
  children: LayoutDatum[];
}

/** Positions for every node; a forest is laid out as children of one invisible root. */
export function layoutTree(input: LayoutInput): LayoutResult {
  const count = input.ids.length;
  const positions = new Float64Array(count * 2);
  if (count === 0) return { positions, width: 0, height: 0 };

  const data: LayoutDatum[] = new Array<LayoutDatum>(count);
  for (let i = 0; i < count; i++) data[i] = { index: i, children: [] };
  const virtualRoot: LayoutDatum = { index: -1, children: [] };
  for (let i = 0; i < count; i++) {
    const parent = input.parents[i] ?? -1;
    const holder = parent >= 0 && parent < i ? data[parent]! : virtualRoot;
    holder.children.push(data[i]!);
  }

  const root = hierarchy<LayoutDatum>(virtualRoot, (d) => (d.children.length ? d.children : null));
  const laidOut = tree<LayoutDatum>()
    .nodeSize([NODE_WIDTH + H_GAP, NODE_HEIGHT + V_GAP])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.15))(root);

  let minX = Infinity;
  let maxX = -Infinity;
  let maxY = 0;
  laidOut.each((node) => {
    if (node.data.index < 0) return;
    // The invisible root sits at depth 0; shift everything one level up.
    const x = node.x - NODE_WIDTH / 2;
    const y = (node.depth - 1) * (NODE_HEIGHT + V_GAP);
    positions[node.data.index * 2] = x;
    positions[node.data.index * 2 + 1] = y;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  });
  return { positions, width: maxX - minX + NODE_WIDTH, height: maxY + NODE_HEIGHT };
}

/** Flattens drawn nodes (pre-order, each knowing its parent id) into a layout input. */
export function layoutInputOf(
  nodes: readonly { id: string; parentId: string | null }[],
): LayoutInput {
  const indexOf = new Map<string, number>();
  const ids: string[] = new Array<string>(nodes.length);
  const parents = new Int32Array(nodes.length);
  nodes.forEach((node, i) => {
    ids[i] = node.id;
    indexOf.set(node.id, i);
    parents[i] = node.parentId === null ? -1 : (indexOf.get(node.parentId) ?? -1);
  });
  return { ids, parents };
}
