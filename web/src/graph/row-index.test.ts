import { describe, expect, it } from 'vitest';
import { contains, grow, RowIndex } from './row-index';
import { layoutInputOf, layoutTree, NODE_HEIGHT, NODE_WIDTH } from './tree-layout';
import { prng } from '../../../shared/prng';

describe('RowIndex', () => {
  it('finds exactly the laid-out nodes whose boxes meet a rectangle', () => {
    const random = prng(5);
    const nodes: { id: string; parentId: string | null }[] = [{ id: 'n0', parentId: null }];
    for (let i = 1; i < 2000; i++) {
      const parent = random() < 0.7 ? i - 1 : Math.floor(random() * i);
      nodes.push({ id: `n${i}`, parentId: `n${parent}` });
    }
    const input = layoutInputOf(nodes);
    const { positions, width, height } = layoutTree(input);
    const index = new RowIndex(input.ids, positions);
    for (let q = 0; q < 50; q++) {
      const x0 = (random() - 0.5) * width;
      const y0 = random() * height;
      const rect = { x0, y0, x1: x0 + random() * 2000, y1: y0 + random() * 2000 };
      const expected = input.ids.filter((_, i) => {
        const x = positions[i * 2]!;
        const y = positions[i * 2 + 1]!;
        return (
          x + NODE_WIDTH >= rect.x0 && x <= rect.x1 && y + NODE_HEIGHT >= rect.y0 && y <= rect.y1
        );
      });
      expect(index.query(rect).sort()).toEqual(expected.sort());
    }
  });

  it('grows a rectangle on every side and tells whether one holds another', () => {
    const view = { x0: 0, y0: 0, x1: 100, y1: 50 };
    const window = grow(view, 0.5);
    expect(window).toEqual({ x0: -50, y0: -25, x1: 150, y1: 75 });
    expect(contains(window, view)).toBe(true);
    expect(contains(view, window)).toBe(false);
  });
});
