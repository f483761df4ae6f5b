import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginSessions } from '../auth/login-sessions.js';
import { SessionOwners } from '../auth/session-owners.js';
import { UserStore } from '../auth/user-store.js';
import { DATA_DIR_LOCK } from '../store/file-lock.js';
import { runArbor, spawnArbor, type ArborProcess } from './test-support/arbor-cli.js';

/*
 * Two servers on one data folder lost each other's owners and logins. The second is refused while
 * the first runs (and starts once the first has crashed), and the files several processes may
 * write (`arbor user` beside a server) are read-merged-written under a lock (decision 053).
 */

let root: string;
let data: string;
let workspace: string;
const running = new Set<ArborProcess>();

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-one-server-'));
  data = path.join(root, 'data');
  workspace = path.join(root, 'ws');
  fs.mkdirSync(workspace);
});
afterEach(async () => {
  for (const arbor of running) {
    arbor.child.kill('SIGKILL');
    await arbor.exited;
  }
  running.clear();
  fs.rmSync(root, { recursive: true, force: true });
});

function serve(): ArborProcess {
  const arbor = spawnArbor(['serve', '--port', '0', '--data', data, '--workspace', workspace]);
  running.add(arbor);
  return arbor;
}

describe('a second server on the same data folder', () => {
  it('is refused with a message naming the running one; after that one crashes, a new one starts', async () => {
    const first = serve();
    await first.waitFor(/Arbor is running at (\S+)/);

    const second = serve();
    const outcome = await Promise.race([
      second.exited.then((code) => ({ exited: code })),
      second.waitFor(/Arbor is running/).then(() => ({ exited: 'still running' })),
    ]);
    expect(outcome).toEqual({ exited: 2 });
    expect(second.output().stderr).toMatch(
      new RegExp(
        `Another Arbor server \\(process ${first.child.pid} on ${os.hostname()}\\) is using the data folder ${data}`,
      ),
    );
    expect(second.output().stdout).not.toMatch(/Arbor is running/);

    first.child.kill('SIGKILL');
    await first.exited;
    running.delete(first);
    expect(fs.existsSync(path.join(data, DATA_DIR_LOCK))).toBe(true);

    const third = serve();
    await third.waitFor(/Arbor is running/);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    running.delete(third);
    expect(fs.existsSync(path.join(data, DATA_DIR_LOCK))).toBe(false);
  }, 60_000);
});

describe('files that several processes write', () => {
  it('keeps every user when `arbor user add` runs eight times at once', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `user${i}`);
    const results = await Promise.all(
      names.map((name) =>
        runArbor(['user', 'add', name, '--role', 'member', '--data', data], {}, 60_000),
      ),
    );
    for (const result of results) expect(result.stderr).toBe('');
    expect(results.map((result) => result.code)).toEqual(names.map(() => 0));
    expect(
      new UserStore(data)
        .list()
        .map((user) => user.name)
        .sort(),
    ).toEqual(names);
  }, 120_000);

  it('keeps both users when two writers add at once, each having read the file before', async () => {
    const server = new UserStore(data);
    const cli = new UserStore(data);
    // Each reads the users, then hashes the new token (asynchronously), then writes.
    await Promise.all([server.add('from-server', 'admin'), cli.add('from-cli', 'viewer')]);
    expect(server.remove('from-server')).toBe(true);
    expect(new UserStore(data).list().map((user) => user.name)).toEqual(['from-cli']);
  });

  it('keeps the owners written by two writers of owners.json', async () => {
    const a = new SessionOwners(data);
    const b = new SessionOwners(data);
    // Both read the (empty) file before either writes.
    expect(a.ownerOf('x')).toBeNull();
    expect(b.ownerOf('x')).toBeNull();
    for (let i = 0; i < 30; i++) {
      a.setOwner(`a${i}`, 'alice');
      b.setOwner(`b${i}`, 'bob');
    }
    await Promise.all([a.flush(), b.flush()]);
    b.forget('b0');
    await b.flush();
    const onDisk = JSON.parse(fs.readFileSync(path.join(data, 'owners.json'), 'utf8')) as {
      owners: Record<string, string>;
    };
    expect(Object.keys(onDisk.owners)).toHaveLength(59);
    expect(onDisk.owners.a29).toBe('alice');
    expect(onDisk.owners.b29).toBe('bob');
    expect(onDisk.owners.b0).toBeUndefined();
    expect(new SessionOwners(data).ownerOf('a0')).toBe('alice');
  });

  it('keeps the logins made by two writers of logins.json', async () => {
    const users = new UserStore(data);
    await users.add('alice', 'member');
    await users.add('bob', 'member');
    const a = new LoginSessions(data);
    const b = new LoginSessions(data);
    const alice = a.create(users.get('alice')!);
    const bob = b.create(users.get('bob')!);
    const restarted = new LoginSessions(data);
    expect(restarted.userFor(alice, users)?.name).toBe('alice');
    expect(restarted.userFor(bob, users)?.name).toBe('bob');
    b.end(alice);
    expect(new LoginSessions(data).userFor(alice, users)).toBeUndefined();
  });
});
