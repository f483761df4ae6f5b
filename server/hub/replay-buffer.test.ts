import { describe, expect, it } from 'vitest';
import { ReplayBuffer } from './replay-buffer.js';

function filled(count: number, max: number, base = 100) {
  const buffer = new ReplayBuffer<string>(max);
  for (let seq = base + 1; seq <= base + count; seq++) buffer.push(seq, `f${seq}`);
  return buffer;
}

describe('ReplayBuffer', () => {
  it('returns exactly the frames after lastSeq', () => {
    expect(filled(5, 10).since(102, 105, 100)).toEqual(['f103', 'f104', 'f105']);
  });
  it('returns nothing for an up-to-date client', () => {
    expect(filled(5, 10).since(105, 105, 100)).toEqual([]);
  });
  it('asks for a snapshot when frames the client needs were dropped', () => {
    const buffer = filled(20, 10);
    expect(buffer.since(109, 120, 100)).toBeUndefined();
    expect(buffer.since(110, 120, 100)).toHaveLength(10);
  });
  it('asks for a snapshot for a seq from another stream', () => {
    const buffer = filled(5, 10);
    expect(buffer.since(200, 105, 100)).toBeUndefined();
    expect(buffer.since(50, 105, 100)).toBeUndefined();
  });
  it('bounds memory by bytes as well as by count', () => {
    const buffer = new ReplayBuffer<string>(1000, 10);
    for (let seq = 1; seq <= 5; seq++) buffer.push(seq, 'xxxx');
    expect(buffer.since(0, 5, 0)).toBeUndefined();
    expect(buffer.since(3, 5, 0)).toEqual(['xxxx', 'xxxx']);
  });
});
