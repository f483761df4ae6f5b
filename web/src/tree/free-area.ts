/*
 * Where on the graph's canvas a node may sit without being covered: the canvas less the overlays
 * drawn over it (minimap, zoom controls, any panel). Overlays sit against the canvas's edges, so
 * each one is cut away by moving one edge of the free rectangle past it; every way of doing so is
 * a candidate, and the view pans by the least that brings the node inside one of them.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The rectangles of `canvas` left clear of every overlay, one per way of cutting each away. */
export function freeRects(canvas: Box, overlays: readonly Box[]): Box[] {
  let rects: Box[] = [canvas];
  for (const overlay of overlays) {
    const next: Box[] = [];
    for (const rect of rects) {
      if (!intersects(rect, overlay)) {
        next.push(rect);
        continue;
      }
      const right = rect.x + rect.width;
      const bottom = rect.y + rect.height;
      const cuts: Box[] = [
        { ...rect, height: overlay.y - rect.y },
        { ...rect, y: overlay.y + overlay.height, height: bottom - overlay.y - overlay.height },
        { ...rect, width: overlay.x - rect.x },
        { ...rect, x: overlay.x + overlay.width, width: right - overlay.x - overlay.width },
      ];
      for (const cut of cuts) if (cut.width > 0 && cut.height > 0) next.push(cut);
    }
    rects = next;
  }
  return rects;
}

/** How far a span must move to lie inside `[start + margin, start + room - margin]`. */
function shift(at: number, size: number, start: number, room: number, margin: number): number {
  if (at < start + margin) return start + margin - at;
  if (at + size > start + room - margin) return start + room - margin - (at + size);
  return 0;
}

/**
 * The least pan (dx, dy in screen pixels) that puts `node` inside a free rectangle with `margin`
 * around it, or null when no free rectangle has room for it (the caller then centres it).
 */
export function panIntoFree(
  node: Box,
  canvas: Box,
  overlays: readonly Box[],
  margin: number,
): { dx: number; dy: number } | null {
  let best: { dx: number; dy: number } | null = null;
  for (const rect of freeRects(canvas, overlays)) {
    if (node.width + 2 * margin > rect.width || node.height + 2 * margin > rect.height) continue;
    const dx = shift(node.x, node.width, rect.x, rect.width, margin);
    const dy = shift(node.y, node.height, rect.y, rect.height, margin);
    if (!best || Math.abs(dx) + Math.abs(dy) < Math.abs(best.dx) + Math.abs(best.dy))
      best = { dx, dy };
  }
  return best;
}

/** The largest free rectangle (the canvas itself when nothing covers it). */
export function largestFree(canvas: Box, overlays: readonly Box[]): Box {
  let best = canvas;
  let area = -1;
  for (const rect of freeRects(canvas, overlays)) {
    if (rect.width * rect.height > area) {
      best = rect;
      area = rect.width * rect.height;
    }
  }
  return best;
}
