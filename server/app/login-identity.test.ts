import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addUserWithCli, removeUserWithCli } from './test-support/run-cli.js';
import { serverPerTest } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';
import { loginCookie } from './test-support/login-cookie.js';

/*
 * A login belongs to the user it was made for, not to a name: `arbor user remove mallory` then
 * `arbor user add mallory --role admin` (the real command line, in its own process, while the server
 * runs) must not turn mallory's old cookie into an admin's.
 */

const tests = serverPerTest();

function login(token: string): Promise<string> {
  return loginCookie(tests.server.url, token);
}

async function me(cookie: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${tests.server.url}/api/me`, { headers: { cookie } });
  return { status: res.status, body: await res.json() };
}

describe('a login cookie of a removed user', () => {
  it('stays dead when a user of the same name is added again, with another role', async () => {
    const server = await tests.start({
      prepare: (dataDir) => void addUserWithCli(dataDir, 'ann', 'admin'),
    });
    const { dataDir } = server;
    const oldCookie = await login(addUserWithCli(dataDir, 'mallory', 'member'));
    expect(await me(oldCookie)).toEqual({
      status: 200,
      body: { user: { name: 'mallory', role: 'member' }, authRequired: true },
    });

    removeUserWithCli(dataDir, 'mallory');
    const newToken = addUserWithCli(dataDir, 'mallory', 'admin');

    expect((await me(oldCookie)).status).toBe(401);
    const listing = await fetch(`${server.url}/api/workspaces`, { headers: { cookie: oldCookie } });
    expect(listing.status).toBe(401);
    await expect(WsTestClient.connect(server.wsUrl, { cookie: oldCookie })).rejects.toThrow(
      /upgrade refused: 401/,
    );
    // The dead login is gone from the file, so no later change can revive it.
    const logins = fs.readFileSync(path.join(dataDir, 'logins.json'), 'utf8');
    expect(Object.keys((JSON.parse(logins) as { logins: object }).logins)).toHaveLength(0);

    // The new mallory logs in with the new token and is admin.
    const newCookie = await login(newToken);
    expect(await me(newCookie)).toEqual({
      status: 200,
      body: { user: { name: 'mallory', role: 'admin' }, authRequired: true },
    });
    expect((await me(oldCookie)).status).toBe(401);
  });

  it('is refused over an open WebSocket once the user is re-added, at the next command', async () => {
    const server = await tests.start({
      prepare: (dataDir) => void addUserWithCli(dataDir, 'ann', 'admin'),
    });
    const cookie = await login(addUserWithCli(server.dataDir, 'mallory', 'member'));
    const client = await tests.open({ cookie });
    const closed = client.closed();
    removeUserWithCli(server.dataDir, 'mallory');
    addUserWithCli(server.dataDir, 'mallory', 'admin');
    // Whether the watch on users.json closes it first or the command does, it ends as unauthorized.
    client.send({ type: 'new_session', id: 'c1', workspaceId: server.workspaceId });
    expect(await closed).toBe(4001);
  });
});
