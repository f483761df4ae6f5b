import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { serverPerTest } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

/*
 * docs/protocol.md is what a client is written from: its frames, sent as the page prints them, must
 * be what this server speaks. The test plays the page's "A minimal session" against a real server,
 * with only the placeholder ids filled in, and checks the handshake example's version too.
 */

const tests = serverPerTest();
const doc = fs.readFileSync(
  path.resolve(import.meta.dirname, '..', '..', 'docs', 'protocol.md'),
  'utf8',
);

/** The client's frames (`→ …`) of the page's minimal session, in order. */
function minimalSessionFrames(): string[] {
  const section = doc.split('## A minimal session')[1];
  if (!section) throw new Error('docs/protocol.md has no "A minimal session" section');
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('→ '))
    .map((line) => line.slice(2).trim());
}

it('the handshake example carries the protocol version the server speaks', async () => {
  const server = await tests.start();
  const health = (await (await fetch(`${server.url}/api/health`)).json()) as {
    protocolVersion: number;
  };
  const example = /\{"type": "hello", "protocolVersion": (\d+)/.exec(doc)?.[1];
  expect(Number(example)).toBe(health.protocolVersion);
});

it("a client that sends the page's minimal session, as printed, gets an answer to its prompt", async () => {
  const server = await tests.start();
  const client = tests.track(await WsTestClient.connect(server.wsUrl));
  const frames = minimalSessionFrames();
  expect(frames.map((frame) => (JSON.parse(frame) as { type: string }).type)).toEqual([
    'hello',
    'new_session',
    'subscribe',
    'prompt',
  ]);
  let sessionId = '';
  for (const printed of frames) {
    const frame = JSON.parse(
      printed
        .replace('"app-1a2b3c4d"', JSON.stringify(server.workspaceId))
        .replaceAll('"0199…"', JSON.stringify(sessionId)),
    ) as { type: string; id?: string };
    client.send(frame);
    if (frame.type === 'hello') {
      await client.next((m) => m.type === 'welcome');
      continue;
    }
    const response = await client.next((m) => m.type === 'response' && m.id === frame.id);
    expect(response).toMatchObject({ ok: true });
    if (frame.type === 'new_session' && response.type === 'response' && response.ok) {
      sessionId = (response.data as { sessionId: string }).sessionId;
    }
  }
  const end = await client.waitForEvent(sessionId, 'agent_end');
  expect(end.type).toBe('event');
});
