import { describe, expect, it } from 'vitest';
import { layoutInputOf, layoutTree, NODE_WIDTH } from './tree-layout';

function positionsOf(nodes: { id: string; parentId: string | null }[]) {
  const input = layoutInputOf(nodes);
  const { positions } = layoutTree(input);
  const out = new Map<string, { x: number; y: number }>();
  input.ids.forEach((id, i) => out.set(id, { x: positions[i * 2]!, y: positions[i * 2 + 1]! }));
  return out;
}

describe('layoutTree', () => {
  it('places children below their parent and siblings side by side without overlap', () => {
    const pos = positionsOf([
      { id: 'r', parentId: null },
      { id: 'a', parentId: 'r' },
      { id: 'b', parentId: 'r' },
      { id: 'a1', parentId: 'a' },
    ]);
    expect(pos.get('a')!.y).toBeGreaterThan(pos.get('r')!.y);
    expect(pos.get('a')!.y).toBe(pos.get('b')!.y);
    expect(Math.abs(pos.get('a')!.x - pos.get('b')!.x)).toBeGreaterThanOrEqual(NODE_WIDTH);
    expect(pos.get('a1')!.y).toBeGreaterThan(pos.get('a')!.y);
    expect(pos.get('a')!.x).toBeLessThan(pos.get('b')!.x);
  });

  it('starts the first root at the top', () => {
    const pos = positionsOf([{ id: 'r', parentId: null }]);
    expect(pos.get('r')!.y).toBe(0);
  });

  it('lays out a forest, each root its own column', () => {
    const pos = positionsOf([
      { id: 'r1', parentId: null },
      { id: 'r2', parentId: null },
    ]);
    expect(pos.get('r1')!.y).toBe(pos.get('r2')!.y);
    expect(pos.get('r1')!.x).not.toBe(pos.get('r2')!.x);
  });

  it('lays out a 10,000-node chain (deep trees must not overflow the stack)', () => {
    const nodes = Array.from({ length: 10_000 }, (_, i) => ({
      id: `n${i}`,
      parentId: i ? `n${i - 1}` : null,
    }));
    const pos = positionsOf(nodes);
    expect(pos.get('n9999')!.y).toBeGreaterThan(pos.get('n9998')!.y);
  });

  it('returns nothing for an empty tree', () => {
    expect(layoutTree({ ids: [], parents: [] }).positions).toHaveLength(0);
  });
});
