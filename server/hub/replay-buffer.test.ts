import { describe, expect, it } from 'vitest';
import { prng } from '../../shared/prng.js';
import { ReplayBuffer } from './replay-buffer.js';

const frame = (text: string) => Buffer.from(text);
const texts = (frames: Buffer[] | undefined) => frames?.map((f) => f.toString());

function filled(count: number, max: number, base = 100) {
  const buffer = new ReplayBuffer(max);
  for (let seq = base + 1; seq <= base + count; seq++) buffer.push(seq, frame(`f${seq}`));
  return buffer;
}

describe('ReplayBuffer', () => {
  it('returns exactly the frames after lastSeq', () => {
    expect(texts(filled(5, 10).since(102, 105, 100))).toEqual(['f103', 'f104', 'f105']);
  });
  it('returns nothing for an up-to-date client', () => {
    expect(filled(5, 10).since(105, 105, 100)).toEqual([]);
  });
  it('asks for a snapshot when frames the client needs were dropped', () => {
    const buffer = filled(20, 10);
    expect(buffer.since(109, 120, 100)).toBeUndefined();
    expect(texts(buffer.since(110, 120, 100))).toEqual(
      Array.from({ length: 10 }, (_, i) => `f${111 + i}`),
    );
  });
  it('asks for a snapshot for a seq from another stream', () => {
    const buffer = filled(5, 10);
    expect(buffer.since(200, 105, 100)).toBeUndefined();
    expect(buffer.since(50, 105, 100)).toBeUndefined();
  });
  it('bounds memory by bytes as well as by count', () => {
    const buffer = new ReplayBuffer(1000, 10);
    // Four bytes each, ten bytes at most: the two newest fit.
    for (let seq = 1; seq <= 5; seq++) buffer.push(seq, frame(`seq${seq}`));
    expect(buffer.since(0, 5, 0)).toBeUndefined();
    expect(texts(buffer.since(3, 5, 0))).toEqual(['seq4', 'seq5']);
  });
  it('keeps a frame larger than the byte bound when it is the newest', () => {
    const buffer = new ReplayBuffer(10, 100);
    buffer.push(1, frame('small'));
    buffer.push(2, Buffer.alloc(1000, 7));
    expect(buffer.since(1, 2, 0)?.[0]?.equals(Buffer.alloc(1000, 7))).toBe(true);
    expect(buffer.since(0, 2, 0)).toBeUndefined();
  });

  it('gives back every kept frame byte for byte, whatever their sizes', () => {
    const random = prng(7);
    const buffer = new ReplayBuffer(300, 2 * 1024 * 1024);
    const sent: Buffer[] = [];
    let checked = 0;
    for (let seq = 1; seq <= 3000; seq++) {
      // Mostly small frames, some past 256 KiB, each filled with its own bytes.
      const size =
        random() < 0.01 ? 256 * 1024 + Math.floor(random() * 100_000) : Math.floor(random() * 5000);
      const bytes = Buffer.alloc(size, seq % 251);
      sent.push(bytes);
      buffer.push(seq, bytes);
      if (seq % 97 === 0) {
        const lastSeq = seq - 1 - Math.floor(random() * 50);
        const got = buffer.since(lastSeq, seq, 0);
        if (got === undefined) continue; // dropped by the byte bound: a snapshot instead
        checked++;
        expect(got.length).toBe(seq - lastSeq);
        got.forEach((f, i) =>
          expect(f.equals(sent[lastSeq + i] as Buffer), `seq ${seq}`).toBe(true),
        );
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
