import { describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { framePayload, textFrame } from './ws-text-frame.js';

interface FrameParser {
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  write(bytes: Buffer): void;
}
/** ws's frame parser: exported by the package, not declared by its types. */
const { Receiver } = ws as unknown as { Receiver: new (options: object) => FrameParser };

/** What a WebSocket client's frame parser (ws's own) reads from these bytes. */
function received(bytes: Buffer): Promise<{ text: string; isBinary: boolean }> {
  return new Promise((resolve, reject) => {
    const receiver = new Receiver({ isServer: false, maxPayload: 0 });
    receiver.on('message', (data, isBinary) => resolve({ text: data.toString('utf8'), isBinary }));
    receiver.on('error', reject);
    receiver.write(bytes);
  });
}

describe('textFrame', () => {
  // Each length class of the header: 7 bits, 16 bits, 64 bits, and both sides of each limit.
  const lengths = [0, 1, 125, 126, 127, 65_535, 65_536, 200_000];

  it.each(lengths)('frames %i bytes of JSON as a client reads them', async (length) => {
    const json = JSON.stringify('x'.repeat(Math.max(0, length - 2)));
    const text = length === 0 ? '' : json;
    const frame = textFrame(text);
    expect(await received(frame)).toEqual({ text, isBinary: false });
    expect(framePayload(frame).toString('utf8')).toBe(text);
  });

  it('counts bytes, not characters, for text beyond ASCII', async () => {
    const text = JSON.stringify({ delta: 'é🌳'.repeat(50) }); // 125 characters, more bytes
    const frame = textFrame(text);
    expect(frame[1]).toBe(126);
    expect(await received(frame)).toEqual({ text, isBinary: false });
  });
});
