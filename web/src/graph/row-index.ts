import { NODE_HEIGHT, NODE_WIDTH, V_GAP } from './tree-layout';

/*
 * Which laid-out nodes fall inside a rectangle, without looking at every node: the tidy-tree layout
 * puts each depth on its own row, so nodes are kept per row sorted by x and a query is one binary
 * search per row it spans.
 */

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const ROW = NODE_HEIGHT + V_GAP;

interface Row {
  xs: Float64Array;
  ids: string[];
}

export class RowIndex {
  private readonly rows = new Map<number, Row>();

  /** `positions` holds x, y of the top-left corner of `ids[i]` at [2i], [2i + 1]. */
  constructor(ids: readonly string[], positions: ArrayLike<number>) {
    const byRow = new Map<number, number[]>();
    for (let i = 0; i < ids.length; i++) {
      const row = Math.round(positions[i * 2 + 1]! / ROW);
      let list = byRow.get(row);
      if (!list) byRow.set(row, (list = []));
      list.push(i);
    }
    for (const [row, members] of byRow) {
      members.sort((a, b) => positions[a * 2]! - positions[b * 2]!);
      this.rows.set(row, {
        xs: Float64Array.from(members, (i) => positions[i * 2]!),
        ids: members.map((i) => ids[i]!),
      });
    }
  }

  /** This index with one more node at `x`, `y`; unchanged rows are shared, not copied. */
  withNode(id: string, x: number, y: number): RowIndex {
    const next = new RowIndex([], []);
    for (const [r, row] of this.rows) next.rows.set(r, row);
    const r = Math.round(y / ROW);
    const row = this.rows.get(r) ?? { xs: new Float64Array(0), ids: [] };
    let at = 0;
    while (at < row.xs.length && row.xs[at]! <= x) at++;
    const xs = new Float64Array(row.xs.length + 1);
    xs.set(row.xs.subarray(0, at));
    xs[at] = x;
    xs.set(row.xs.subarray(at), at + 1);
    next.rows.set(r, { xs, ids: [...row.ids.slice(0, at), id, ...row.ids.slice(at)] });
    return next;
  }

  /** Ids of the nodes whose box meets `rect`, row by row, left to right. */
  query(rect: Rect): string[] {
    const found: string[] = [];
    const first = Math.floor((rect.y0 - NODE_HEIGHT) / ROW);
    const last = Math.ceil(rect.y1 / ROW);
    for (let r = first; r <= last; r++) {
      const row = this.rows.get(r);
      if (!row) continue;
      const top = r * ROW;
      if (top > rect.y1 || top + NODE_HEIGHT < rect.y0) continue;
      // First node whose right edge reaches the rectangle.
      let lo = 0;
      let hi = row.xs.length;
      const from = rect.x0 - NODE_WIDTH;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (row.xs[mid]! < from) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < row.xs.length && row.xs[i]! <= rect.x1; i++) found.push(row.ids[i]!);
    }
    return found;
  }
}

/** True when `inner` lies inside `outer`. */
export function contains(outer: Rect, inner: Rect): boolean {
  return (
    inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 && inner.y1 <= outer.y1
  );
}

/** `rect` grown on every side by `factor` times its own width and height. */
export function grow(rect: Rect, factor: number): Rect {
  const dx = (rect.x1 - rect.x0) * factor;
  const dy = (rect.y1 - rect.y0) * factor;
  return { x0: rect.x0 - dx, y0: rect.y0 - dy, x1: rect.x1 + dx, y1: rect.y1 + dy };
}
