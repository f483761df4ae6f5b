import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES, MAX_PROMPT_CHARS } from '../../shared/protocol.js';
import { serverPerTest } from './test-support/test-server.js';
import type { WsTestClient } from './test-support/ws-test-client.js';

/*
 * Frames past the protocol's limits, on a real server and a real socket: each is answered with
 * words a person reads, on the request it belongs to, and nothing of it is run or written.
 */

const tests = serverPerTest();

async function openSession(): Promise<{ client: WsTestClient; sessionId: string; file: string }> {
  const server = await tests.start();
  const client = await tests.open();
  const sessionId = await client.newSession(server.workspaceId);
  const file = server.app.arbor.locator.locate(sessionId)?.file as string;
  return { client, sessionId, file };
}

describe('frames over the limits', () => {
  it('a prompt one character over the limit is refused with its length and the limit', async () => {
    const { client, sessionId, file } = await openSession();
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const response = await client.request({
      type: 'prompt',
      sessionId,
      text: 'x'.repeat(MAX_PROMPT_CHARS + 1),
    });
    expect(response).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_argument',
        message: 'The message is 1,000,001 characters; the limit is 1,000,000.',
      },
    });
    expect(client.events(sessionId)).toEqual([]);
    expect(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').toBe(before);
    // The connection goes on serving.
    await client.ok({ type: 'ping' });
  });

  it('a frame over the byte limit is refused with its size and the limit, in megabytes', async () => {
    const { client, sessionId } = await openSession();
    const image = { type: 'image', mimeType: 'image/png', data: 'A'.repeat(MAX_FRAME_BYTES) };
    const response = await client.request({
      type: 'prompt',
      sessionId,
      text: 'hi',
      images: [image],
    });
    expect(response).toMatchObject({
      ok: false,
      error: {
        code: 'payload_too_large',
        message:
          'This is 16.0 MB to send at once; the server takes at most 16.0 MB. Shorten the message, or attach fewer or smaller images.',
      },
    });
    expect(client.events(sessionId)).toEqual([]);
  });
});
