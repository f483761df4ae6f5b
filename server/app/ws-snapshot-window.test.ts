import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../shared/messages.js';
import type { Snapshot } from '../../shared/protocol.js';
import { SessionStore } from '../store/session-store.js';
import { sessionDirFor } from '../store/session-paths.js';
import { SNAPSHOT_MESSAGES } from '../hub/path-messages.js';
import { serverPerTest } from './test-support/test-server.js';
import type { WsTestClient } from './test-support/ws-test-client.js';

const tests = serverPerTest();

const usage = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function turn(n: number): AgentMessage[] {
  return [
    { role: 'user', content: `prompt ${n}`, timestamp: n },
    {
      role: 'assistant',
      content: [{ type: 'text', text: `answer ${n}` }],
      api: 'openai-completions',
      provider: 'arbor',
      model: 'arbor-demo',
      usage,
      stopReason: 'stop',
      timestamp: n,
    },
  ];
}

/** Writes a session of `turns` prompt/answer pairs (after a settings entry) into the first workspace. */
function seed(dataDir: string, turns: number): { sessionId: string; ids: string[] } {
  const workspace = fs.realpathSync(path.join(path.dirname(dataDir), 'ws0'));
  const store = SessionStore.create({
    cwd: workspace,
    sessionDir: sessionDirFor(dataDir, workspace),
  });
  store.appendModelChange('arbor', 'arbor-demo');
  const ids: string[] = [];
  for (let n = 1; n <= turns; n++)
    for (const message of turn(n)) ids.push(store.appendMessage(message));
  const sessionId = store.sessionId;
  store.close();
  return { sessionId, ids };
}

async function snapshotOf(
  sessionId: string,
): Promise<{ client: WsTestClient; snapshot: Snapshot }> {
  const client = await tests.open();
  await client.ok({ type: 'subscribe', sessionId });
  const snapshot = (await client.seen(
    (m) => m.type === 'snapshot' && m.sessionId === sessionId,
  )) as Snapshot;
  return { client, snapshot };
}

describe('the snapshot carries only the newest path messages', () => {
  it('sends exactly the newest window of a long path and counts the rest as omitted', async () => {
    let seeded = { sessionId: '', ids: [] as string[] };
    await tests.start({ prepare: (dataDir) => void (seeded = seed(dataDir, 130)) });
    const { client, snapshot } = await snapshotOf(seeded.sessionId);

    expect(seeded.ids).toHaveLength(260);
    expect(snapshot.messages.map((m) => m.entryId)).toEqual(seeded.ids.slice(-SNAPSHOT_MESSAGES));
    expect(snapshot.omittedMessages).toBe(260 - SNAPSHOT_MESSAGES);
    expect(snapshot.messages.at(-1)?.message).toMatchObject({ role: 'assistant' });
    expect(snapshot.messages[0]?.message).toMatchObject({ role: 'user', content: 'prompt 31' });

    // What was left out is one get_entries away.
    const first = seeded.ids[0]!;
    const { entries, missing } = await client.ok<{
      entries: { id: string; message: unknown }[];
      missing: string[];
    }>({
      type: 'get_entries',
      sessionId: seeded.sessionId,
      ids: [first],
    });
    expect(missing).toEqual([]);
    expect(entries[0]).toMatchObject({ id: first, message: { role: 'user', content: 'prompt 1' } });
  });

  it('sends a short path whole, with nothing omitted', async () => {
    let seeded = { sessionId: '', ids: [] as string[] };
    await tests.start({ prepare: (dataDir) => void (seeded = seed(dataDir, 3)) });
    const { snapshot } = await snapshotOf(seeded.sessionId);
    expect(snapshot.messages.map((m) => m.entryId)).toEqual(seeded.ids);
    expect(snapshot.omittedMessages).toBe(0);
  });
});
