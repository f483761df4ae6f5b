import type net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/protocol.js';
import { SessionStore } from '../store/session-store.js';
import { sessionDirFor } from '../store/session-paths.js';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

let server: TestServer | undefined;
let client: WsTestClient | undefined;
afterEach(async () => {
  await client?.close().catch(() => undefined);
  await server?.close();
  client = server = undefined;
});

function bytesRead(c: WsTestClient): number {
  return (c.socket as unknown as { _socket: net.Socket })._socket.bytesRead;
}

describe('frame compression', () => {
  it('sends a big tree skeleton deflated, at a fraction of its JSON size', async () => {
    server = await startTestServer();
    const store = SessionStore.create({
      cwd: server.workspacePath,
      sessionDir: sessionDirFor(server.dataDir, server.workspacePath),
    });
    for (let i = 0; i < 3000; i++) {
      store.appendMessage({
        role: 'user',
        content: [
          { type: 'text', text: `Prompt number ${i}: ${'please look at the parser '.repeat(8)}` },
        ],
        timestamp: Date.now(),
      });
    }
    const sessionId = store.sessionId;
    store.close();

    client = await WsTestClient.open(server.wsUrl);
    expect(client.socket.extensions).toContain('permessage-deflate');
    const before = bytesRead(client);
    await client.ok({ type: 'subscribe', sessionId });
    const snapshot = (await client.seen((m) => m.type === 'snapshot')) as Snapshot;
    const jsonBytes = Buffer.byteLength(JSON.stringify(snapshot));
    expect(snapshot.tree.length).toBeGreaterThanOrEqual(3000);
    expect(jsonBytes).toBeGreaterThan(300_000);
    expect(bytesRead(client) - before).toBeLessThan(jsonBytes / 4);
  });
});
