/*
 * An event as it goes on the wire: a WebSocket text frame as a server sends it (RFC 6455 §5.2:
 * final, unmasked, no extension bits) with the JSON already inside, built once per event and
 * written as is to every subscriber's socket and kept so in the replay buffer. Framing per
 * subscriber, as `ws.send` does, cost a header buffer, a corked pair of writes and a writev for
 * every client (bench/ws: a fifth of the server's allocations while streaming). ws itself offers
 * `Sender.frame` for the same purpose; this writes the JSON straight after the header, so the
 * frame is one buffer and one copy.
 */

/** The frame around `json`. */
export function textFrame(json: string): Buffer {
  const length = Buffer.byteLength(json);
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN + opcode 1 (text)
  if (headerLength === 2) {
    frame[1] = length;
  } else if (headerLength === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  frame.write(json, headerLength, 'utf8');
  return frame;
}

/** The JSON bytes inside a frame `textFrame` built. */
export function framePayload(frame: Buffer): Buffer {
  const marker = frame[1] as number;
  return frame.subarray(marker < 126 ? 2 : marker === 126 ? 4 : 10);
}
