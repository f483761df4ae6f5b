import { describe, expect, it } from 'vitest';
import { freeRects, largestFree, panIntoFree, type Box } from './free-area';

const canvas: Box = { x: 0, y: 0, width: 700, height: 800 };
const minimap: Box = { x: 485, y: 635, width: 200, height: 150 };
const controls: Box = { x: 15, y: 680, width: 26, height: 105 };
const node = (x: number, y: number): Box => ({ x, y, width: 200, height: 52 });

describe('free area of the graph canvas', () => {
  it('leaves the whole canvas when nothing covers it', () => {
    expect(freeRects(canvas, [])).toEqual([canvas]);
    expect(panIntoFree(node(100, 100), canvas, [], 24)).toEqual({ dx: 0, dy: 0 });
  });

  it('moves a node out from under the minimap by the least pan', () => {
    const pan = panIntoFree(node(450, 700), canvas, [minimap, controls], 24)!;
    const moved = { ...node(450 + pan.dx, 700 + pan.dy) };
    for (const overlay of [minimap, controls]) {
      const clear =
        moved.x + moved.width + 24 <= overlay.x ||
        overlay.x + overlay.width + 24 <= moved.x ||
        moved.y + moved.height + 24 <= overlay.y ||
        overlay.y + overlay.height + 24 <= moved.y;
      expect(clear).toBe(true);
    }
    // Moving it left past the minimap costs 259 px; up above it, 141 px.
    expect(pan).toEqual({ dx: 0, dy: -141 });
  });

  it('keeps a node already clear of the overlays where it is', () => {
    expect(panIntoFree(node(200, 300), canvas, [minimap, controls], 24)).toEqual({ dx: 0, dy: 0 });
  });

  it('answers null when no free part has room, and names the largest free part', () => {
    const tiny: Box = { x: 0, y: 0, width: 220, height: 80 };
    expect(panIntoFree(node(0, 0), tiny, [], 24)).toBeNull();
    expect(largestFree(canvas, [minimap])).toEqual({ x: 0, y: 0, width: 700, height: 635 });
  });
});
