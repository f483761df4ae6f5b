import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../shared/messages.js';
import type { PathMessage, Snapshot } from '../../shared/protocol.js';
import { SNAPSHOT_MESSAGES } from '../hub/path-messages.js';
import { SessionStore } from '../store/session-store.js';
import { sessionDirFor } from '../store/session-paths.js';
import { serverPerTest } from './test-support/test-server.js';

/*
 * `get_path` reads the path to any entry, another branch's included, windowed as a snapshot, for
 * anyone who may read the session: it never moves the leaf and never writes (decision 076).
 */

const tests = serverPerTest();

const usage = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

const user = (text: string): AgentMessage => ({ role: 'user', content: text, timestamp: 1 });
const answer = (text: string): AgentMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  api: 'openai-completions',
  provider: 'arbor',
  model: 'arbor-demo',
  usage,
  stopReason: 'stop',
  timestamp: 2,
});

interface Seeded {
  sessionId: string;
  file: string;
  /** The first branch's ids (root first), which the leaf leaves behind. */
  other: string[];
  /** The active branch's own ids, after the shared first turn. */
  active: string[];
  shared: string[];
}

/** A session whose first turn forks into two branches; the leaf ends on the second. */
function seed(dataDir: string, otherTurns = 2): Seeded {
  const workspace = fs.realpathSync(path.join(path.dirname(dataDir), 'ws0'));
  const store = SessionStore.create({
    cwd: workspace,
    sessionDir: sessionDirFor(dataDir, workspace),
  });
  const shared = [store.appendMessage(user('first')), store.appendMessage(answer('first answer'))];
  const other: string[] = [];
  for (let n = 1; n <= otherTurns; n++) {
    other.push(store.appendMessage(user(`other ${n}`)));
    other.push(store.appendMessage(answer(`other answer ${n}`)));
  }
  store.branch(shared[1]!);
  const active = [
    store.appendMessage(user('active')),
    store.appendMessage(answer('active answer')),
  ];
  const result = { sessionId: store.sessionId, file: '', other, active, shared };
  store.close();
  const dir = sessionDirFor(dataDir, workspace);
  result.file = path.join(
    dir,
    fs.readdirSync(dir).find((name) => name.endsWith('.jsonl'))!,
  );
  return result;
}

async function open(sessionId: string, cookie?: string) {
  const client = await tests.open(cookie ? { cookie } : {});
  const snapshot = client.next((m) => m.type === 'snapshot' && m.sessionId === sessionId);
  await client.ok({ type: 'subscribe', sessionId });
  return { client, snapshot: (await snapshot) as Snapshot };
}

type PathAnswer = { entryId: string; messages: PathMessage[]; omittedMessages: number };

describe('get_path', () => {
  it("returns another branch's messages and leaves the leaf and the file as they were", async () => {
    let seeded = {} as Seeded;
    await tests.start({ prepare: (dataDir) => void (seeded = seed(dataDir)) });
    const { client, snapshot } = await open(seeded.sessionId);
    expect(snapshot.leafId).toBe(seeded.active.at(-1));
    const before = fs.readFileSync(seeded.file, 'utf8');

    const target = seeded.other.at(-1)!;
    const read = await client.ok<PathAnswer>({
      type: 'get_path',
      sessionId: seeded.sessionId,
      entryId: target,
    });
    expect(read.entryId).toBe(target);
    expect(read.omittedMessages).toBe(0);
    expect(read.messages.map((m) => m.entryId)).toEqual([...seeded.shared, ...seeded.other]);
    expect(read.messages[2]?.message).toMatchObject({ role: 'user', content: 'other 1' });

    const state = await client.ok<{ leafId: string }>({
      type: 'get_state',
      sessionId: seeded.sessionId,
    });
    expect(state.leafId).toBe(seeded.active.at(-1));
    expect(client.events(seeded.sessionId)).toEqual([]);
    expect(fs.readFileSync(seeded.file, 'utf8')).toBe(before);
  });

  it('windows a long path as a snapshot does, counting the older messages it left out', async () => {
    let seeded = {} as Seeded;
    await tests.start({ prepare: (dataDir) => void (seeded = seed(dataDir, 150)) });
    const { client } = await open(seeded.sessionId);
    const read = await client.ok<PathAnswer>({
      type: 'get_path',
      sessionId: seeded.sessionId,
      entryId: seeded.other.at(-1)!,
    });
    const whole = [...seeded.shared, ...seeded.other];
    expect(read.messages.map((m) => m.entryId)).toEqual(whole.slice(-SNAPSHOT_MESSAGES));
    expect(read.omittedMessages).toBe(whole.length - SNAPSHOT_MESSAGES);
  });

  it('answers not_found for an entry the session does not have', async () => {
    let seeded = {} as Seeded;
    await tests.start({ prepare: (dataDir) => void (seeded = seed(dataDir)) });
    const { client } = await open(seeded.sessionId);
    const response = await client.request({
      type: 'get_path',
      sessionId: seeded.sessionId,
      entryId: 'nosuchentry',
    });
    expect(response).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('lets a viewer read another branch, while moving the leaf stays refused', async () => {
    let seeded = {} as Seeded;
    const { cookies } = await tests.startTeam(
      { ann: 'admin', vic: 'viewer' },
      { prepare: (dataDir) => void (seeded = seed(dataDir)) },
    );
    const { client } = await open(seeded.sessionId, cookies.vic);
    const target = seeded.other.at(-1)!;
    const read = await client.ok<PathAnswer>({
      type: 'get_path',
      sessionId: seeded.sessionId,
      entryId: target,
    });
    expect(read.messages.at(-1)?.entryId).toBe(target);
    const move = await client.request({
      type: 'navigate_tree',
      sessionId: seeded.sessionId,
      targetId: target,
    });
    expect(move).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });
});
