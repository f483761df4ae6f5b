import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { nodeBodyText, type BodyText } from './body-text.js';

async function readAll(body: BodyText): Promise<string[]> {
  const reads: string[] = [];
  for (;;) {
    const text = await body.read();
    if (text === undefined) return reads;
    reads.push(text);
  }
}

describe('nodeBodyText', () => {
  it('gives what arrived between reads at once, and pauses the socket while unread', async () => {
    const source = new PassThrough();
    const body = nodeBodyText(source);
    for (let i = 0; i < 100; i++) source.write(`piece ${i};`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).toBe(true);
    source.end('last');
    const reads = await readAll(body);
    expect(reads.join('')).toBe(
      Array.from({ length: 100 }, (_, i) => `piece ${i};`).join('') + 'last',
    );
    expect(reads.length).toBeLessThan(10);
  });

  it('keeps characters whole when their bytes arrive apart', async () => {
    const source = new PassThrough();
    const body = nodeBodyText(source);
    const bytes = Buffer.from('🌳é');
    for (const byte of bytes) source.write(Buffer.from([byte]));
    source.end();
    expect((await readAll(body)).join('')).toBe('🌳é');
  });

  it('throws when the stream closes before its end', async () => {
    const source = new PassThrough();
    const body = nodeBodyText(source);
    source.write('half');
    expect(await body.read()).toBe('half');
    const next = body.read();
    source.destroy();
    await expect(next).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('lets go of the stream when cancelled', () => {
    const source = new PassThrough();
    nodeBodyText(source).cancel();
    expect(source.destroyed).toBe(true);
  });
});
