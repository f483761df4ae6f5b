import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/protocol.js';
import { SessionOwners } from '../auth/session-owners.js';
import { DEMO_PROVIDER } from '../models/model-catalog.js';
import { UserStore } from '../auth/user-store.js';
import { sessionDirFor } from '../store/session-paths.js';
import { SessionStore } from '../store/session-store.js';
import { assistantMessage, userMessage } from '../test-support/messages.js';
import { makeReadOnly } from './test-support/small-disk.js';
import { loginCookie } from './test-support/login-cookie.js';
import { serverPerTest } from './test-support/test-server.js';
import type { WsTestClient } from './test-support/ws-test-client.js';

/*
 * Opening or subscribing to a session is a read and writes nothing (decision 053): not a lock,
 * not a repair, not a model_change for a model the catalog lacks. So a viewer cannot change the
 * owner's file by looking at it, and a read-only data folder serves every read.
 */

const tests = serverPerTest();

interface Seeded {
  file: string;
  sessionId: string;
  tokens: Record<string, string>;
}

/** A session owned by ada whose recorded model is `model`, plus users ada (member) and val (viewer). */
async function seed(
  dataDir: string,
  model: { provider: string; id: string },
  withUsers = true,
): Promise<Seeded> {
  const workspace = fs.realpathSync(path.join(path.dirname(dataDir), 'ws0'));
  const store = SessionStore.create({
    cwd: workspace,
    sessionDir: sessionDirFor(dataDir, workspace),
  });
  store.appendModelChange(model.provider, model.id);
  store.appendThinkingLevelChange('off');
  store.appendMessage(userMessage('what was said before'));
  store.appendMessage(
    assistantMessage('an answer from the recorded model', {
      provider: model.provider,
      model: model.id,
    }),
  );
  const { file, sessionId } = { file: store.file!, sessionId: store.sessionId };
  store.close();
  const owners = new SessionOwners(dataDir);
  owners.setOwner(sessionId, 'ada');
  await owners.flush();
  if (!withUsers) return { file, sessionId, tokens: {} };
  const users = new UserStore(dataDir);
  const tokens = {
    ada: (await users.add('ada', 'member')).token,
    val: (await users.add('val', 'viewer')).token,
  };
  return { file, sessionId, tokens };
}

async function loginAs(token: string): Promise<WsTestClient> {
  return tests.open({ cookie: await loginCookie(tests.server.url, token) });
}

async function subscribe(client: WsTestClient, sessionId: string): Promise<Snapshot> {
  const snapshot = client.next((m) => m.type === 'snapshot' && m.sessionId === sessionId);
  await client.ok({ type: 'subscribe', sessionId });
  return (await snapshot) as Snapshot;
}

describe('a viewer opening a session whose model is not in the catalog', () => {
  it('leaves the file byte for byte as it was, and takes no lock', async () => {
    let seeded: Seeded | undefined;
    await tests.start({
      prepare: async (dataDir) => {
        seeded = await seed(dataDir, { provider: 'retired', id: 'old-model-1' });
      },
    });
    const { file, sessionId, tokens } = seeded!;
    const before = fs.readFileSync(file);

    const val = await loginAs(tokens.val!);
    const snapshot = await subscribe(val, sessionId);
    expect(snapshot.messages.length).toBe(2);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    expect(
      await val.request({ type: 'set_model', sessionId, provider: 'arbor', modelId: 'arbor-demo' }),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fs.readFileSync(file).equals(before)).toBe(true);

    // The owner acts: a prompt on the retired model is refused, writing nothing; once she picks
    // another model, it is recorded, and her prompt runs.
    const ada = await loginAs(tokens.ada!);
    await subscribe(ada, sessionId);
    expect(await ada.request({ type: 'prompt', sessionId, text: 'go on' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringContaining('retired/old-model-1') },
    });
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    await ada.ok({ type: 'set_model', sessionId, provider: 'arbor', modelId: 'arbor-demo' });
    const ended = ada.waitForEvent(sessionId, 'agent_end');
    await ada.ok({ type: 'prompt', sessionId, text: 'go on' });
    await ended;
    const added = fs.readFileSync(file).subarray(before.length).toString('utf8').trim().split('\n');
    expect(added.map((line) => JSON.parse(line).type)).toEqual([
      'model_change',
      'message', // Arbor's prompt and tools, recorded before the first request (pi 1.6)
      'message',
      'message',
    ]);
    expect(JSON.parse(added[0]!)).toMatchObject({ modelId: 'arbor-demo' });
    expect(JSON.parse(added[1]!)).toMatchObject({ message: { role: 'system' } });
  }, 60_000);
});

describe('a session another program writes while Arbor only reads it', () => {
  it("refuses Arbor's first write with a conflict, then shows the other program's entries when opened again", async () => {
    let seeded: Seeded | undefined;
    await tests.start({
      prepare: async (dataDir) => {
        seeded = await seed(dataDir, { provider: DEMO_PROVIDER, id: 'arbor-demo' });
      },
    });
    const { file, sessionId, tokens } = seeded!;
    const ada = await loginAs(tokens.ada!);
    await subscribe(ada, sessionId);

    // Nothing holds the file while Arbor only reads it: `arbor run` or pi may append.
    const terminal = SessionStore.open(file);
    terminal.appendMessage(userMessage('typed in the terminal'));
    terminal.close();
    const after = fs.readFileSync(file);

    const refused = await ada.request({ type: 'prompt', sessionId, text: 'from the page' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/changed on disk/) },
    });
    expect(refused.ok === false && refused.error.message).not.toContain(file);
    expect(fs.readFileSync(file).equals(after)).toBe(true);

    const again = await subscribe(ada, sessionId);
    expect(again.messages.map((message) => message.message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    const ended = ada.waitForEvent(sessionId, 'agent_end');
    await ada.ok({ type: 'prompt', sessionId, text: 'from the page' });
    await ended;
  }, 60_000);
});

describe('a session whose file another live process holds', () => {
  it('can be watched, and a prompt is refused with "in use by another program"', async () => {
    let seeded: Seeded | undefined;
    await tests.start({
      prepare: async (dataDir) => {
        seeded = await seed(dataDir, { provider: DEMO_PROVIDER, id: 'arbor-demo' });
      },
    });
    const { file, sessionId, tokens } = seeded!;
    const holder = spawn(
      process.execPath,
      ['--import', 'tsx', path.resolve('server/store/test-support/hold-lock.ts'), `${file}.lock`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    try {
      await new Promise((resolve) => holder.stdout.once('data', resolve));
      const ada = await loginAs(tokens.ada!);
      expect((await subscribe(ada, sessionId)).messages).toHaveLength(2);
      expect(await ada.request({ type: 'prompt', sessionId, text: 'mine now?' })).toMatchObject({
        ok: false,
        error: { code: 'conflict', message: expect.stringMatching(/in use by another program/) },
      });
    } finally {
      holder.kill('SIGKILL');
      await exited;
    }
  }, 60_000);
});

describe('a read-only data folder', () => {
  it('serves the listing and a WebSocket subscribe, and refuses a prompt with read_only', async () => {
    let seeded: Seeded | undefined;
    const server = await tests.start({
      prepare: async (dataDir) => {
        seeded = await seed(dataDir, { provider: DEMO_PROVIDER, id: 'arbor-demo' }, false);
        // Root ignores file modes: only a read-only mount stops it. The app closes before the
        // mount is undone, and the folder is removed after.
        const { undo } = makeReadOnly(dataDir);
        tests.alsoClose(async () => {
          try {
            await tests.server.app.close();
          } finally {
            undo();
          }
        });
      },
    });
    const { file, sessionId } = seeded!;
    const before = fs.readFileSync(file);
    expect(() => fs.writeFileSync(`${file}.probe`, 'x')).toThrow(/EROFS/);

    // No users: the loopback admin, since a login is itself a write (logins.json).
    const ada = await tests.open();
    const listing = await fetch(`${server.url}/api/workspaces/${server.workspaceId}/sessions`);
    expect(listing.status).toBe(200);
    expect(JSON.stringify(await listing.json())).toContain(sessionId);
    const snapshot = await subscribe(ada, sessionId);
    expect(snapshot.sessionId).toBe(sessionId);
    const entries = await ada.ok<{ entries: unknown[] }>({
      type: 'get_entries',
      sessionId,
      ids: snapshot.leafId ? [snapshot.leafId] : [],
    });
    expect(entries.entries).toHaveLength(1);

    const prompt = await ada.request({ type: 'prompt', sessionId, text: 'change it' });
    expect(prompt).toMatchObject({
      ok: false,
      error: { code: 'read_only', message: expect.stringMatching(/read-only/) },
    });
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  }, 60_000);
});
