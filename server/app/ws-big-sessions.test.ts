import { describe, expect, it } from 'vitest';
import type { ResponseFrame, Snapshot } from '../../shared/protocol.js';
import { serverPerTest } from './test-support/test-server.js';
import { importSession } from './test-support/import-session.js';
import { assistantLine, headerLine, userLine } from './test-support/session-lines.js';
import type { WsTestClient } from './test-support/ws-test-client.js';

/*
 * Sessions whose active path holds more than a client's socket may buffer (three 10 MB images, one
 * 50 MB tool output), imported over HTTP and opened over a real WebSocket with the default buffer
 * limit (8 MB; a socket holding four times that unsent is closed with 4008).
 */

const tests = serverPerTest();

const SESSION_ID = '0190a000-0000-7000-8000-0000000b1650';

async function subscribe(): Promise<{ client: WsTestClient; snapshot: Snapshot }> {
  const client = await tests.open();
  const snapshot = client.next((m) => m.type === 'snapshot', 60_000);
  await client.ok({ type: 'subscribe', sessionId: SESSION_ID });
  return { client, snapshot: (await snapshot) as Snapshot };
}

describe('a session bigger than a socket may buffer', () => {
  it('three 10 MB images on the path: the subscriber stays connected and gets a snapshot', async () => {
    const s = await tests.start();
    // A 10 MB picture, base64-encoded as pi stores it.
    const image = 'A'.repeat(Math.ceil((10 * 1024 * 1024 * 4) / 3));
    let body = headerLine(SESSION_ID);
    let parent: string | null = null;
    for (let i = 0; i < 3; i++) {
      body += userLine(`user000${i}`, parent, [
        { type: 'text', text: `picture ${i}` },
        { type: 'image', data: image, mimeType: 'image/png' },
      ]);
      body += assistantLine(`asst000${i}`, `user000${i}`, `a fine picture ${i}`);
      parent = `asst000${i}`;
    }
    await importSession(s, body);

    const { client, snapshot } = await subscribe();
    expect(snapshot.messages.map((m) => m.entryId)).toEqual([
      'user0000',
      'asst0000',
      'user0001',
      'asst0001',
      'user0002',
      'asst0002',
    ]);
    const shown = JSON.stringify(snapshot.messages[4]!.message);
    expect(shown).toContain('picture 2');
    expect(shown).toMatch(/image\/png image of 10\.0 MB.*not shown here/);
    expect(shown.length).toBeLessThan(1024 * 1024);

    const answer = await client.ok<{ entries: { id: string }[]; missing: string[] }>({
      type: 'get_entries',
      sessionId: SESSION_ID,
      ids: ['user0000', 'user0001', 'user0002'],
    });
    expect(answer.entries.map((entry) => entry.id)).toEqual(['user0000', 'user0001', 'user0002']);
    expect(JSON.stringify(answer.entries)).toContain('not shown here');
    await client.ok({ type: 'ping' });
    expect(client.closeCode).toBeUndefined();
  }, 120_000);

  it('one 50 MB line is sent cut with a marker, and the socket stays open', async () => {
    const s = await tests.start();
    const output = 'x'.repeat(50 * 1024 * 1024);
    const body =
      headerLine(SESSION_ID) +
      userLine('user0000', null, 'print it') +
      assistantLine('asst0000', 'user0000', output);
    await importSession(s, body);
    const { client, snapshot } = await subscribe();
    const last = JSON.stringify(snapshot.messages.at(-1)!.message);
    expect(last).toMatch(/49\.\d MB of 50\.0 MB not shown here/);
    expect(last.length).toBeLessThan(4 * 1024 * 1024);
    await client.ok({ type: 'ping' });
    expect(client.closeCode).toBeUndefined();
  }, 120_000);

  it('answers get_entries within one frame and defers the rest, to be asked for again', async () => {
    const s = await tests.start();
    const text = 'y'.repeat(1536 * 1024);
    let body = headerLine(SESSION_ID);
    let parent: string | null = null;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const id = `user000${i}`;
      body += userLine(id, parent, text);
      ids.push(id);
      parent = id;
    }
    await importSession(s, body);
    const { client, snapshot } = await subscribe();
    expect(snapshot.messages.length).toBeLessThan(6);
    expect(snapshot.omittedMessages).toBe(6 - snapshot.messages.length);

    const got: string[] = [];
    let asking = ids;
    for (let round = 0; asking.length > 0 && round < 10; round++) {
      const response: ResponseFrame = await client.request({
        type: 'get_entries',
        sessionId: SESSION_ID,
        ids: asking,
      });
      expect(response.ok).toBe(true);
      const data = (response as { data: { entries: { id: string }[]; deferred?: string[] } }).data;
      expect(data.entries.length).toBeGreaterThan(0);
      expect(JSON.stringify(data.entries).length).toBeLessThanOrEqual(4 * 1024 * 1024);
      got.push(...data.entries.map((entry) => entry.id));
      asking = data.deferred ?? [];
    }
    expect(got).toEqual(ids);
    expect(client.closeCode).toBeUndefined();
  }, 120_000);

  it('a prompt with 12 MB of pictures: every event frame fits the budget and the socket stays open', async () => {
    const s = await tests.start();
    const client = await tests.open();
    const sessionId = await client.newSession(s.workspaceId);
    const picture = { type: 'image', data: 'B'.repeat(4 * 1024 * 1024), mimeType: 'image/png' };
    const done = client.waitForEvent(sessionId, 'agent_end', 60_000);
    await client.ok({
      type: 'prompt',
      sessionId,
      text: 'three pictures',
      images: [picture, picture, picture],
    });
    await done;
    const events = client.events(sessionId);
    const sizes = events.map((frame) => Buffer.byteLength(JSON.stringify(frame)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4 * 1024 * 1024);
    const userEnd = events.find(
      (frame) => frame.event.type === 'message_end' && frame.event.message.role === 'user',
    );
    expect(JSON.stringify(userEnd)).toMatch(/image\/png image of 3\.0 MB.*not shown here/);
    await client.ok({ type: 'ping' });
    expect(client.closeCode).toBeUndefined();
    // The session file keeps the pictures whole.
    const download = await fetch(`${s.url}/api/sessions/${sessionId}/download`);
    expect((await download.text()).length).toBeGreaterThan(12 * 1024 * 1024);
  }, 120_000);
});
