import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/protocol.js';
import { serverPerTest } from './test-support/test-server.js';
import { importSession } from './test-support/import-session.js';
import { assistantLine, headerLine, userLine } from './test-support/session-lines.js';

/*
 * What travels on the wire, counted on the client's TCP socket: a big snapshot goes out deflated
 * (permessage-deflate, ws-route.ts), while event frames, even big ones, go out as they are, so a
 * delta never waits behind a compression.
 */

const tests = serverPerTest();

const SESSION_ID = '0190a000-0000-7000-8000-00000000de71';

/** A session of `turns` prompts and answers along one line: a snapshot of a few hundred KB. */
function sessionFile(turns: number): string {
  let body = headerLine(SESSION_ID);
  let parent: string | null = null;
  for (let i = 0; i < turns; i++) {
    const user = `u${String(i).padStart(7, '0')}`;
    const answer = `a${String(i).padStart(7, '0')}`;
    body += userLine(user, parent, [{ type: 'text', text: `question ${i} about the tree` }]);
    body += assistantLine(answer, user, `answer ${i}: the tree has many branches`);
    parent = answer;
  }
  return body;
}

describe('frames on the wire', () => {
  it('deflate a big snapshot and send every event frame uncompressed', async () => {
    const server = await tests.start();
    await importSession(server, sessionFile(3_000));
    const client = await tests.open();
    expect(client.socket.extensions).toMatch(/permessage-deflate/);
    const raw: Buffer[] = [];
    client.socket.on('message', (data) => raw.push(data as Buffer));

    const before = client.bytesReceived;
    const snapshot = client.next((m) => m.type === 'snapshot', 30_000);
    await client.ok({ type: 'subscribe', sessionId: SESSION_ID });
    expect(((await snapshot) as Snapshot).sessionId).toBe(SESSION_ID);
    const snapshotBytes = raw.reduce((sum, data) => sum + data.length, 0);
    expect(snapshotBytes).toBeGreaterThan(200_000);
    // Deflated, the snapshot takes a fraction of its JSON on the wire.
    expect(client.bytesReceived - before).toBeLessThan(snapshotBytes / 3);

    raw.length = 0;
    const streamed = client.bytesReceived;
    const ended = client.waitForEvent(SESSION_ID, 'agent_end');
    // The prompt's own events (message_start, message_end, entry_appended) pass 64 KiB.
    await client.ok({ type: 'prompt', sessionId: SESSION_ID, text: 'y'.repeat(100_000) });
    await ended;
    const deltas = client
      .events(SESSION_ID)
      .filter((frame) => frame.event.type === 'message_update');
    expect(deltas.length).toBeGreaterThan(0);
    expect(Math.max(...raw.map((data) => data.length))).toBeGreaterThan(64 * 1024);
    // Every event frame, big ones included, took at least its own JSON on the wire.
    const payload = raw.reduce((sum, data) => sum + data.length, 0);
    expect(client.bytesReceived - streamed).toBeGreaterThanOrEqual(payload);
  });
});
