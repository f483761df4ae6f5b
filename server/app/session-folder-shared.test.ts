import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/protocol.js';
import type { SessionListItem } from '../../shared/rest-shapes.js';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { runPi16Cli } from '../store/test-support/pi16-oracle.js';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

/*
 * A relocated session folder (pi's `sessionDir` in pi's settings, decision 071) shared by two
 * workspaces, with the real pi 1.6 CLI: pi writes every working directory's sessions into that
 * one folder, and Arbor, on the same agent folder, lists, opens and downloads each workspace's
 * own, writes its new sessions and forks there, and pi continues them.
 */

let demo: RunningDemoModel;
let server: TestServer;
let shared: string;
let elsewhere: string;
let ws0: { id: string; path: string };
let ws1: { id: string; path: string };

function pi(cwd: string, args: string[]) {
  return runPi16Cli(['-p', '--provider', 'pi-demo', '--model', 'scripted', ...args], {
    cwd,
    agentDir: server.dataDir,
  });
}

async function listed(workspaceId: string): Promise<SessionListItem[]> {
  const response = await fetch(`${server.url}/api/workspaces/${workspaceId}/sessions`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessions: SessionListItem[] }).sessions;
}

/** The session files in the shared folder, by header id, with their header's cwd. */
function sharedFiles(): Map<string, { file: string; cwd: string }> {
  const files = new Map<string, { file: string; cwd: string }>();
  for (const name of fs.readdirSync(shared).filter((n) => n.endsWith('.jsonl'))) {
    const file = path.join(shared, name);
    const header = JSON.parse(fs.readFileSync(file, 'utf8').split('\n', 1)[0]!) as {
      id: string;
      cwd: string;
    };
    files.set(header.id, { file, cwd: header.cwd });
  }
  return files;
}

beforeAll(async () => {
  demo = await startDemoModel();
  shared = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-shared-sessions-')));
  elsewhere = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-other-project-')));
  server = await startTestServer({
    extraWorkspaces: 1,
    prepare: (dataDir) => {
      // pi's agent folder as a pi user has it: a provider, and sessions kept elsewhere.
      fs.writeFileSync(
        path.join(dataDir, 'models.json'),
        JSON.stringify({
          providers: {
            'pi-demo': {
              baseUrl: demo.baseUrl,
              api: 'openai-completions',
              apiKey: 'demo',
              models: [{ id: 'scripted', contextWindow: 64_000, maxTokens: 4096 }],
            },
          },
        }),
      );
      fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ sessionDir: shared }));
    },
  });
  const [first, second] = server.app.arbor.config.workspaces;
  ws0 = first!;
  ws1 = second!;
});

afterAll(async () => {
  await server?.close();
  await demo?.close();
  for (const dir of [shared, elsewhere]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a session folder shared by two workspaces', () => {
  it("takes the folder from pi's settings in the data folder", () => {
    expect(server.app.arbor.config.sessionDir).toBe(shared);
  });

  it('pi 1.6 writes there from each working directory, and each workspace lists and opens only its own', async () => {
    for (const [cwd, text] of [
      [ws0.path, 'first from pi in ws0'],
      [ws1.path, 'first from pi in ws1'],
      [elsewhere, 'from pi in a project Arbor does not serve'],
    ] as const) {
      const result = await pi(cwd, [text]);
      expect(result.stderr).not.toMatch(/error/i);
      expect(result.code).toBe(0);
    }
    const files = [...sharedFiles().values()];
    expect(files.map((f) => f.cwd).sort()).toEqual([ws0.path, ws1.path, elsewhere].sort());
    // Nothing went to pi's per-directory folders.
    expect(fs.existsSync(path.join(server.dataDir, 'sessions'))).toBe(false);

    const in0 = await listed(ws0.id);
    const in1 = await listed(ws1.id);
    expect(in0.map((s) => s.firstMessage)).toEqual(['first from pi in ws0']);
    expect(in1.map((s) => s.firstMessage)).toEqual(['first from pi in ws1']);

    const foreign = [...sharedFiles()].find(([, f]) => f.cwd === elsewhere)![0];
    const client = await WsTestClient.open(server.wsUrl);
    try {
      await client.ok({ type: 'subscribe', sessionId: in1[0]!.id });
      const snapshot = (await client.seen(
        (m) => m.type === 'snapshot' && m.sessionId === in1[0]!.id,
      )) as Snapshot;
      expect(JSON.stringify(snapshot.messages)).toContain('first from pi in ws1');
      // The session of a directory Arbor does not serve stays out of reach.
      const refused = await client.request({ type: 'subscribe', sessionId: foreign });
      expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } });
    } finally {
      await client.close();
    }
    const download = await fetch(`${server.url}/api/sessions/${in0[0]!.id}/download`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(
      fs.readFileSync(sharedFiles().get(in0[0]!.id)!.file, 'utf8'),
    );
    expect((await fetch(`${server.url}/api/sessions/${foreign}/download`)).status).toBe(404);
  }, 120_000);

  it('Arbor writes its new sessions and forks there, and pi 1.6 continues them', async () => {
    const client = await WsTestClient.open(server.wsUrl);
    let sessionId: string;
    try {
      sessionId = await client.newSession(ws0.id);
      await client.prompt(sessionId, 'from arbor in ws0');
    } finally {
      await client.close();
    }
    const mine = sharedFiles().get(sessionId);
    expect(mine).toEqual({ file: expect.stringMatching(/\.jsonl$/), cwd: ws0.path });

    // pi's --continue in ws0 picks the newest session of ws0 in the shared folder: Arbor's.
    const result = await pi(ws0.path, ['-c', 'pi continues arbor']);
    expect(result.code).toBe(0);
    expect(fs.readFileSync(mine!.file, 'utf8')).toContain('pi continues arbor');

    const again = await WsTestClient.open(server.wsUrl);
    try {
      await again.ok({ type: 'subscribe', sessionId });
      const snapshot = (await again.seen(
        (m) => m.type === 'snapshot' && m.sessionId === sessionId,
      )) as Snapshot;
      const userEntry = snapshot.messages.find(
        (m) =>
          m.message.role === 'user' &&
          JSON.stringify(m.message.content).includes('from arbor in ws0'),
      );
      expect(userEntry?.entryId).toEqual(expect.any(String));
      const fork = await again.ok<{ sessionId: string }>({
        type: 'fork',
        sessionId,
        entryId: userEntry!.entryId,
      });
      expect(sharedFiles().get(fork.sessionId)?.cwd).toBe(ws0.path);
      const clone = await again.ok<{ sessionId: string }>({ type: 'clone', sessionId });
      expect(sharedFiles().get(clone.sessionId)?.cwd).toBe(ws0.path);
      const ids0 = (await listed(ws0.id)).map((s) => s.id);
      expect(ids0).toEqual(expect.arrayContaining([sessionId, fork.sessionId, clone.sessionId]));
      const ids1 = (await listed(ws1.id)).map((s) => s.id);
      expect(ids1).toHaveLength(1);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('imports into the shared folder', async () => {
    const header = {
      type: 'session',
      version: 3,
      id: 'imported-into-ws1',
      timestamp: new Date().toISOString(),
      cwd: ws1.path,
    };
    const user = {
      type: 'message',
      id: 'a1b2c3d4',
      parentId: null,
      timestamp: new Date().toISOString(),
      message: { role: 'user', content: 'an imported prompt', timestamp: Date.now() },
    };
    const response = await fetch(`${server.url}/api/workspaces/${ws1.id}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: `${JSON.stringify(header)}\n${JSON.stringify(user)}\n`,
    });
    expect(response.status).toBe(201);
    expect(sharedFiles().get('imported-into-ws1')?.cwd).toBe(ws1.path);
    expect((await listed(ws1.id)).map((s) => s.id)).toContain('imported-into-ws1');

    // One recorded in another directory would not show in ws1: refused, and nothing kept.
    const foreign = { ...header, id: 'recorded-elsewhere', cwd: '/home/someone/project' };
    const refused = await fetch(`${server.url}/api/workspaces/${ws1.id}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: `${JSON.stringify(foreign)}\n${JSON.stringify(user)}\n`,
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      'This session was recorded in "/home/someone/project".',
    );
    expect(sharedFiles().has('recorded-elsewhere')).toBe(false);
  });
});
