import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TreeNode } from '../../shared/session-entries.js';
import { sessionDirFor } from '../store/session-paths.js';
import { SessionStore } from '../store/session-store.js';
import { expectSameAsPi16 } from '../store/test-support/pi16-compare.js';
import { runPi16Cli } from '../store/test-support/pi16-oracle.js';
import {
  startRecordedTeamSession,
  type RecordedTeamSession,
} from './test-support/recorded-team-session.js';
import type { TestServer } from './test-support/test-server.js';
import type { WsTestClient } from './test-support/ws-test-client.js';

/*
 * Context edits by people, over a real WebSocket with real logins: `edit_context` appends a pi 1.6
 * context_edit at the leaf, the next request to the model (the demo model, reached through a proxy
 * that records each request body) leaves out the hidden message and carries the replacement, an
 * undo brings the original back, pi 1.6 reads the file to the same context at every entry, and
 * those who may not act in the session are refused.
 */

const USERS = { max: 'member', mia: 'member', vic: 'viewer' } as const;
type Name = keyof typeof USERS;

let team: RecordedTeamSession<Name>;
let server: TestServer;
let clients: Record<Name, WsTestClient>;
let sessionId: string;

async function tree(): Promise<{ nodes: TreeNode[]; leafId: string }> {
  const answer = await clients.max.ok<{ tree: TreeNode[]; leafId: string }>({
    type: 'get_tree',
    sessionId,
  });
  const nodes = answer.tree;
  if (typeof nodes === 'string') throw new Error(nodes);
  return { nodes, leafId: answer.leafId };
}

function contextTexts(): string[] {
  const store = SessionStore.openReadOnly(team.sessionFile());
  try {
    return store
      .buildSessionContext()
      .messages.filter((message) => message.role !== 'system')
      .map((message) => {
        const content: unknown = 'content' in message ? message.content : '';
        const text =
          typeof content === 'string'
            ? content
            : (content as { text?: string }[]).map((part) => part.text ?? '').join('');
        return `${message.role}: ${text}`;
      });
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  team = await startRecordedTeamSession(USERS, 'max');
  ({ server, clients, sessionId } = team);
  await team.prompt('alpha is a secret');
  await team.prompt('beta');
}, 60_000);

afterAll(() => team.close());

describe('context edits over the WebSocket', () => {
  it('hides a message and replaces another without branching; the model gets the edited context', async () => {
    const before = await tree();
    const alpha = before.nodes.find((n) => n.role === 'user' && n.preview.startsWith('alpha'))!;
    const betaAnswer = before.nodes.find(
      (n) => n.role === 'assistant' && n.preview.includes('beta'),
    )!;
    expect(contextTexts()).toContain('user: alpha is a secret');

    const appended = clients.max.waitForEvent(sessionId, 'entry_appended');
    const hidden = await clients.max.ok<{ entryId: string }>({
      type: 'edit_context',
      sessionId,
      targetId: alpha.id,
      content: null,
    });
    const event = (await appended) as { event: { node: TreeNode } };
    expect(event.event.node).toMatchObject({ id: hidden.entryId, type: 'context_edit' });
    // pi 1.6's shape, key order included, at the leaf: no branch.
    const line = team.lastLine();
    expect(Object.keys(line)).toEqual([
      'type',
      'id',
      'parentId',
      'timestamp',
      'targetId',
      'replacement',
    ]);
    expect(line).toMatchObject({
      type: 'context_edit',
      id: hidden.entryId,
      parentId: before.leafId,
      targetId: alpha.id,
      replacement: null,
    });

    const replaced = await clients.max.ok<{ entryId: string }>({
      type: 'edit_context',
      sessionId,
      targetId: betaAnswer.id,
      content: '(answer withheld)',
    });
    expect(team.lastLine()).toMatchObject({
      parentId: hidden.entryId,
      targetId: betaAnswer.id,
      replacement: { content: [{ type: 'text', text: '(answer withheld)' }] },
    });
    expect((await tree()).leafId).toBe(replaced.entryId);
    expect(contextTexts()).toEqual([
      'assistant: You said: "alpha is a secret"',
      'user: beta',
      'assistant: (answer withheld)',
    ]);

    await team.prompt('gamma');
    expect(team.lastRequestTexts()).toEqual([
      'assistant: You said: "alpha is a secret"',
      'user: beta',
      'assistant: (answer withheld)',
      'user: gamma',
    ]);
    await expectSameAsPi16(team.sessionFile());
  });

  it('undoes an edit with a later edit that restores the original', async () => {
    const { nodes } = await tree();
    const alpha = nodes.find((n) => n.role === 'user' && n.preview.startsWith('alpha'))!;
    const restored = await clients.max.ok<{ entryId: string }>({
      type: 'edit_context',
      sessionId,
      targetId: alpha.id,
      content: { restore: true },
    });
    expect(team.lastLine()).toMatchObject({
      id: restored.entryId,
      targetId: alpha.id,
      replacement: { content: [{ type: 'text', text: 'alpha is a secret' }] },
    });
    await team.prompt('delta');
    expect(team.lastRequestTexts().slice(0, 2)).toEqual([
      'user: alpha is a secret',
      'assistant: You said: "alpha is a secret"',
    ]);
    // An undo of what is not edited says so.
    const again = await clients.max.request({
      type: 'edit_context',
      sessionId,
      targetId: alpha.id,
      content: { restore: true },
    });
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringMatching(/nothing to undo/) },
    });
    await expectSameAsPi16(team.sessionFile());
  });

  it('refuses targets off the active path, of kinds that cannot be edited, and unknown ones', async () => {
    const { nodes } = await tree();
    const file = team.sessionFile();
    const size = fs.statSync(file).size;
    const firstAnswer = nodes.find((n) => n.role === 'assistant')!;
    const offPath = nodes.find((n) => n.role === 'user' && n.preview === 'beta')!;
    const edit = nodes.find((n) => n.type === 'context_edit')!;
    const leaf = (await tree()).leafId;
    // A branch after the first answer leaves "beta" off the active path.
    await clients.max.ok({ type: 'navigate_tree', sessionId, targetId: firstAnswer.id });
    const sized = fs.statSync(file).size;
    const offAnswer = await clients.max.request({
      type: 'edit_context',
      sessionId,
      targetId: offPath.id,
      content: null,
    });
    expect(offAnswer).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringMatching(/not on the active path/) },
    });
    await clients.max.ok({ type: 'navigate_tree', sessionId, targetId: leaf });
    const kindAnswer = await clients.max.request({
      type: 'edit_context',
      sessionId,
      targetId: edit.id,
      content: 'x',
    });
    expect(kindAnswer).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringMatching(/only user, assistant/) },
    });
    const unknown = await clients.max.request({
      type: 'edit_context',
      sessionId,
      targetId: 'ffffffff',
      content: null,
    });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(sized).toBeGreaterThan(size); // the navigation wrote its leaf markers, nothing else did
    expect(team.lastLine()).toMatchObject({ type: 'custom' });
  });

  it('refuses an edit while the agent is running', async () => {
    const { nodes } = await tree();
    const alpha = nodes.find((n) => n.role === 'user' && n.preview.startsWith('alpha'))!;
    const done = clients.max.waitForEvent(sessionId, 'agent_end', 30_000);
    const started = clients.max.waitForEvent(sessionId, 'message_start');
    await clients.max.ok({ type: 'prompt', sessionId, text: '/slow 100\nslowly' });
    await started;
    const answer = await clients.max.request({
      type: 'edit_context',
      sessionId,
      targetId: alpha.id,
      content: null,
    });
    expect(answer).toMatchObject({ ok: false, error: { code: 'session_busy' } });
    await done;
    expect(contextTexts()).toContain('user: alpha is a secret');
  });

  it('refuses a viewer and a member who does not own the session, writing nothing', async () => {
    const { nodes } = await tree();
    const alpha = nodes.find((n) => n.role === 'user' && n.preview.startsWith('alpha'))!;
    const before = fs.readFileSync(team.sessionFile());
    for (const name of ['vic', 'mia'] as const) {
      const answer = await clients[name].request({
        type: 'edit_context',
        sessionId,
        targetId: alpha.id,
        content: null,
      });
      expect(answer, name).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(fs.readFileSync(team.sessionFile()).equals(before)).toBe(true);
  });

  it('pi 1.6 continues a copy of the file with the same request to the model as Arbor', async () => {
    const { nodes } = await tree();
    const alpha = nodes.find((n) => n.role === 'user' && n.preview.startsWith('alpha'))!;
    await clients.max.ok({ type: 'edit_context', sessionId, targetId: alpha.id, content: null });
    // pi's agent folder: its models.json sends the demo model's requests through the proxy too.
    const agentDir = fs.mkdtempSync(path.join(server.dataDir, 'pi-agent-'));
    fs.writeFileSync(
      path.join(agentDir, 'models.json'),
      JSON.stringify({
        providers: {
          arbor: {
            baseUrl: team.modelUrl,
            api: 'openai-completions',
            apiKey: 'demo',
            models: [{ id: 'arbor-demo', contextWindow: 64_000, maxTokens: 4096 }],
          },
        },
      }),
    );
    // A copy where pi looks for the workspace's sessions, so Arbor's own file stays as it is.
    const copies = sessionDirFor(agentDir, server.workspacePath);
    fs.mkdirSync(copies, { recursive: true });
    fs.copyFileSync(team.sessionFile(), path.join(copies, path.basename(team.sessionFile())));
    const pi = await runPi16Cli(
      ['-p', '--provider', 'arbor', '--model', 'arbor-demo', '--session-id', sessionId, 'epsilon'],
      { cwd: server.workspacePath, agentDir },
    );
    expect(pi.code, pi.stderr).toBe(0);
    const piRequest = team.lastRequestTexts();
    await team.prompt('epsilon');
    const arborRequest = team.lastRequestTexts();
    expect(piRequest).not.toContain('user: alpha is a secret');
    expect(piRequest).toContain('assistant: (answer withheld)');
    expect(arborRequest).toEqual(piRequest);
  });
});
