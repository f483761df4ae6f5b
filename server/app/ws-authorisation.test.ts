import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_TYPES, type CommandType, type Snapshot } from '../../shared/protocol.js';
import type { TreeNode } from '../../shared/session-entries.js';
import {
  startTeamOnSocket,
  type TeamOnSocket,
  type TestServer,
} from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

/*
 * Every role × every command × own and another's session, over a real WebSocket with real logins.
 * The expected answers are written out here, apart from the server's own authorisation code.
 */

const USERS = { ann: 'admin', max: 'member', mia: 'member', vic: 'viewer' } as const;
type Name = keyof typeof USERS;

const READ: CommandType[] = [
  'subscribe',
  'unsubscribe',
  'get_state',
  'get_resources',
  'get_session_stats',
  'get_tree',
  'get_entries',
  'get_path',
  'switch_session',
  'ping',
];
/** Commands that make a session: never a viewer's (decision 055). */
const CREATE: CommandType[] = ['new_session', 'fork', 'clone'];

function expectedAllowed(user: Name, owner: Name, command: CommandType): boolean {
  if (READ.includes(command)) return true;
  if (CREATE.includes(command)) return USERS[user] !== 'viewer';
  return USERS[user] === 'admin' || (USERS[user] === 'member' && owner === user);
}

let team: TeamOnSocket<Name>;
let server: TestServer;
let clients: Record<Name, WsTestClient>;
const sessions = {} as Record<'max' | 'ann', { id: string; userEntry: string; leaf: string }>;

function sessionFileCount(dir: string): number {
  return fs.readdirSync(dir, { recursive: true }).filter((name) => String(name).endsWith('.jsonl'))
    .length;
}

async function seed(owner: 'max' | 'ann') {
  const client = clients[owner];
  const sessionId = await client.newSession(server.workspaceId);
  await client.prompt(sessionId, 'seed');
  const answer = await client.ok<{ tree: TreeNode[]; leafId: string }>({
    type: 'get_tree',
    sessionId,
  });
  const tree = answer.tree;
  if (typeof tree === 'string') throw new Error(tree);
  const leafId = answer.leafId;
  const userEntry = tree.find((node) => node.role === 'user')?.id as string;
  sessions[owner] = { id: sessionId, userEntry, leaf: leafId };
}

function commandFor(type: CommandType, session: { id: string; userEntry: string; leaf: string }) {
  const sessionId = session.id;
  switch (type) {
    case 'new_session':
      return { type, workspaceId: server.workspaceId };
    case 'ping':
      return { type };
    case 'prompt':
    case 'steer':
    case 'follow_up':
      return { type, sessionId, text: `${type} text` };
    case 'bash':
      return { type, sessionId, command: 'true' };
    case 'get_entries':
      return { type, sessionId, ids: [session.userEntry] };
    case 'get_path':
      return { type, sessionId, entryId: session.userEntry };
    case 'dequeue':
      return { type, sessionId, queue: 'followUp', index: 0, text: 'not queued' };
    case 'navigate_tree':
      return { type, sessionId, targetId: session.leaf };
    case 'fork':
      return { type, sessionId, entryId: session.userEntry };
    case 'compact':
      return { type, sessionId };
    case 'set_model':
      return { type, sessionId, provider: 'arbor', modelId: 'arbor-demo' };
    case 'set_thinking_level':
      return { type, sessionId, level: 'off' };
    case 'set_label':
      return { type, sessionId, entryId: session.userEntry, label: 'checked' };
    case 'set_session_name':
      return { type, sessionId, name: 'renamed' };
    case 'edit_context':
      return { type, sessionId, targetId: session.userEntry, content: 'edited' };
    default:
      return { type, sessionId };
  }
}

beforeAll(async () => {
  team = await startTeamOnSocket(USERS);
  ({ server, clients } = team);
  await seed('max');
  await seed('ann');
}, 60_000);

afterAll(() => team.close());

describe('authorisation over the WebSocket', () => {
  it('refuses the upgrade without a login', async () => {
    await expect(WsTestClient.connect(server.wsUrl)).rejects.toThrow(/upgrade refused: 401/);
  });

  it('tells each user in the snapshot whether they may act', async () => {
    for (const name of Object.keys(USERS) as Name[]) {
      for (const owner of ['max', 'ann'] as const) {
        const client = clients[name];
        const snapshot = client.next(
          (m) => m.type === 'snapshot' && m.sessionId === sessions[owner].id,
        );
        await client.ok({ type: 'subscribe', sessionId: sessions[owner].id });
        expect(((await snapshot) as Snapshot).access, `${name} on ${owner}'s`).toEqual({
          canWrite: expectedAllowed(name, owner, 'prompt'),
          owner,
        });
      }
    }
  });

  it(
    'answers each role × command × own/other session as the model says',
    { timeout: 120_000 },
    async () => {
      const outcomes: string[] = [];
      const expected: string[] = [];
      for (const name of Object.keys(USERS) as Name[]) {
        const client = clients[name];
        for (const owner of ['max', 'ann'] as const) {
          const session = sessions[owner];
          for (const type of COMMAND_TYPES) {
            await client.ok({ type: 'subscribe', sessionId: session.id });
            const done =
              type === 'prompt' ? client.waitForEvent(session.id, 'agent_end', 30_000) : undefined;
            const response = await client.request(commandFor(type, session));
            const forbidden = !response.ok && response.error.code === 'forbidden';
            outcomes.push(`${name} ${type} on ${owner}'s: ${forbidden ? 'forbidden' : 'allowed'}`);
            expected.push(
              `${name} ${type} on ${owner}'s: ${expectedAllowed(name, owner, type) ? 'allowed' : 'forbidden'}`,
            );
            if (response.ok && done) await done;
            else done?.catch(() => undefined);
          }
        }
      }
      expect(outcomes).toEqual(expected);
    },
  );

  it("gives the forker ownership of a fork of someone else's session", async () => {
    const mia = clients.mia;
    await mia.ok({ type: 'subscribe', sessionId: sessions.ann.id });
    const { sessionId } = await mia.ok<{ sessionId: string }>({
      type: 'fork',
      sessionId: sessions.ann.id,
      entryId: sessions.ann.userEntry,
    });
    const snapshot = mia.next((m) => m.type === 'snapshot' && m.sessionId === sessionId);
    await mia.ok({ type: 'subscribe', sessionId });
    expect(((await snapshot) as Snapshot).access).toEqual({ canWrite: true, owner: 'mia' });
    const max = clients.max;
    await max.ok({ type: 'subscribe', sessionId });
    const refused = await max.request({ type: 'set_session_name', sessionId, name: 'mine now' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('refuses a viewer every clone and fork, so no copy is ever made for it', async () => {
    const vic = clients.vic;
    const sessionsDir = path.join(server.dataDir, 'sessions');
    const before = sessionFileCount(sessionsDir);
    await vic.ok({ type: 'subscribe', sessionId: sessions.max.id });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        vic.request(
          i % 2 === 0
            ? { type: 'clone', sessionId: sessions.max.id }
            : { type: 'fork', sessionId: sessions.max.id, entryId: sessions.max.userEntry },
        ),
      ),
    );
    for (const answer of answers) {
      expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(sessionFileCount(sessionsDir)).toBe(before);
  });
});
