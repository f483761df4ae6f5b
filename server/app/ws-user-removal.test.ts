import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addUserWithCli, removeUserWithCli } from './test-support/run-cli.js';
import { serverPerTest } from './test-support/test-server.js';
import type { WsTestClient } from './test-support/ws-test-client.js';
import { loginCookie } from './test-support/login-cookie.js';

/*
 * A WebSocket that only listens never sends a command, so a check per command never runs for it.
 * When users.json changes (the real `arbor user` command, in its own process, or an edit by hand),
 * the server closes every connection whose user is gone or whose role changed, at once.
 */

const tests = serverPerTest();

function login(token: string): Promise<string> {
  return loginCookie(tests.server.url, token);
}

function closeOf(client: WsTestClient): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) =>
    client.socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
}

/** A team server with ann (admin) running a session that mallory (member) watches. */
async function watchedSession() {
  const tokens: Record<string, string> = {};
  const server = await tests.start({
    prepare: (dataDir) => {
      tokens.ann = addUserWithCli(dataDir, 'ann', 'admin');
      tokens.mallory = addUserWithCli(dataDir, 'mallory', 'member');
    },
  });
  const ann = await tests.open({ cookie: await login(tokens.ann as string) });
  const mallory = await tests.open({ cookie: await login(tokens.mallory as string) });
  const sessionId = await ann.newSession(server.workspaceId);
  await mallory.ok({ type: 'subscribe', sessionId });
  // mallory receives the live events of ann's run: the stream a removal must cut.
  const seen = mallory.waitForEvent(sessionId, 'agent_end');
  await ann.ok({ type: 'prompt', sessionId, text: 'first' });
  await seen;
  return { server, ann, mallory, sessionId };
}

describe('an open WebSocket whose user changes', () => {
  it('is closed with 4001 when the user is removed, without sending anything', async () => {
    const { server, ann, mallory, sessionId } = await watchedSession();
    const closed = closeOf(mallory);
    removeUserWithCli(server.dataDir, 'mallory');
    expect(await closed).toEqual({ code: 4001, reason: 'user removed' });
    // Events of a later run reach ann only.
    const before = mallory.events(sessionId).length;
    const done = ann.waitForEvent(sessionId, 'agent_end');
    await ann.ok({ type: 'prompt', sessionId, text: 'second' });
    await done;
    expect(mallory.events(sessionId)).toHaveLength(before);
    expect(ann.socket.readyState).toBe(ann.socket.OPEN);
  });

  it('is closed with 1001 "role changed" when the role is edited in users.json', async () => {
    const { server, ann, mallory } = await watchedSession();
    const closed = closeOf(mallory);
    const file = path.join(server.dataDir, 'users.json');
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      users: { name: string; role: string }[];
    };
    for (const user of json.users) if (user.name === 'mallory') user.role = 'viewer';
    fs.writeFileSync(`${file}.edit`, JSON.stringify(json));
    fs.renameSync(`${file}.edit`, file);
    expect(await closed).toEqual({ code: 1001, reason: 'role changed' });
    expect(ann.socket.readyState).toBe(ann.socket.OPEN);
  });

  it('on a local server, is closed with 4001 once the first user is added', async () => {
    const server = await tests.start();
    const local = await tests.open();
    const closed = closeOf(local);
    addUserWithCli(server.dataDir, 'ann', 'admin');
    expect(await closed).toEqual({ code: 4001, reason: 'login required' });
  });
});
