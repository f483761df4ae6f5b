import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runUser } from '../cli/user-command.js';
import { LoginSessions } from './login-sessions.js';
import { UserStore } from './user-store.js';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-users-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('UserStore', () => {
  it('verifies the token it issued and stores only a salted hash of it', async () => {
    const store = new UserStore(dataDir);
    const { token } = await store.add('ada', 'member');
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const file = fs.readFileSync(path.join(dataDir, 'users.json'), 'utf8');
    expect(file).not.toContain(token);
    expect(await store.verify(token)).toMatchObject({ name: 'ada', role: 'member' });
    expect(await store.verify(`${token.slice(0, -1)}x`)).toBeUndefined();
    expect(await store.verify('')).toBeUndefined();
  });

  it('refuses a duplicate user and a name that is not a plain name', async () => {
    const store = new UserStore(dataDir);
    await store.add('ada', 'admin');
    await expect(store.add('ada', 'viewer')).rejects.toThrow(/already exists/);
    await expect(store.add('../x', 'viewer')).rejects.toThrow(/not a valid user name/);
  });

  it('sees users added or removed by another process', async () => {
    const server = new UserStore(dataDir);
    expect(server.hasUsers()).toBe(false);
    const { token } = await new UserStore(dataDir).add('bo', 'viewer');
    expect(server.get('bo')).toMatchObject({ name: 'bo', role: 'viewer' });
    new UserStore(dataDir).remove('bo');
    expect(server.get('bo')).toBeUndefined();
    expect(await server.verify(token)).toBeUndefined();
  });

  it('reports a corrupt users file by name instead of treating it as empty', () => {
    fs.writeFileSync(path.join(dataDir, 'users.json'), '{"version":1,"users":[{"name":1}]}');
    expect(() => new UserStore(dataDir).hasUsers()).toThrow(
      /users\.json is not a valid users file/,
    );
  });
});

describe('LoginSessions', () => {
  it('keeps logins across a restart and ends them on logout', async () => {
    const users = new UserStore(dataDir);
    await users.add('ada', 'member');
    const ada = users.get('ada');
    if (!ada) throw new Error('no ada');
    const secret = new LoginSessions(dataDir).create(ada);
    const restarted = new LoginSessions(dataDir);
    expect(restarted.userFor(secret, users)).toEqual(ada);
    expect(fs.readFileSync(path.join(dataDir, 'logins.json'), 'utf8')).not.toContain(secret);
    restarted.end(secret);
    expect(new LoginSessions(dataDir).userFor(secret, users)).toBeUndefined();
    expect(restarted.userFor('not-a-login', users)).toBeUndefined();
  });

  it('gives every user a stable id, and a re-added name another one', async () => {
    const users = new UserStore(dataDir);
    await users.add('mallory', 'member');
    const first = users.get('mallory')?.id;
    expect(first).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new UserStore(dataDir).get('mallory')?.id).toBe(first);
    users.remove('mallory');
    await users.add('mallory', 'admin');
    expect(users.get('mallory')?.id).not.toBe(first);
  });

  it('derives a lasting id for a users file written before ids, and writes it at the next change', async () => {
    const users = new UserStore(dataDir);
    await users.add('old', 'member');
    const file = path.join(dataDir, 'users.json');
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { users: { id?: string }[] };
    for (const user of json.users) delete user.id;
    fs.writeFileSync(file, JSON.stringify(json));
    const derived = new UserStore(dataDir).get('old')?.id;
    expect(derived).toMatch(/^u-/);
    expect(new UserStore(dataDir).get('old')?.id).toBe(derived);
    await new UserStore(dataDir).add('new', 'viewer');
    expect(fs.readFileSync(file, 'utf8')).toContain(`"id": "${derived}"`);
  });

  it('keeps a login made before ids only if it is younger than its user', async () => {
    const users = new UserStore(dataDir);
    await users.add('ada', 'member');
    const ada = users.get('ada');
    if (!ada) throw new Error('no ada');
    const logins = new LoginSessions(dataDir);
    const young = logins.create(ada);
    const old = logins.create(ada);
    // Rewrite logins.json as a version without ids would have: name only; "old" made before ada.
    const file = path.join(dataDir, 'logins.json');
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      logins: Record<string, { userId?: string; expires: number }>;
    };
    const entries = Object.values(json.logins);
    for (const login of entries) delete login.userId;
    (entries[1] as { expires: number }).expires -= 60_000;
    fs.writeFileSync(file, JSON.stringify(json));
    const restarted = new LoginSessions(dataDir);
    expect(restarted.userFor(young, users)).toEqual(ada);
    expect(restarted.userFor(old, users)).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toContain(`"userId": "${ada.id}"`);
  });
});

describe('arbor user', () => {
  it('add prints the token once, list shows the user, remove takes them away', async () => {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    expect(await runUser(['add', 'cy', '--role', 'viewer', '--data', dataDir])).toBe(0);
    const token = /\n {2}([A-Za-z0-9_-]{43})\n/.exec(out)?.[1];
    expect(token).toBeDefined();
    expect(await new UserStore(dataDir).verify(token as string)).toMatchObject({
      name: 'cy',
      role: 'viewer',
    });
    out = '';
    expect(await runUser(['list', '--data', dataDir])).toBe(0);
    expect(out).toBe('cy\tviewer\n');
    expect(await runUser(['remove', 'cy', '--data', dataDir])).toBe(0);
    expect(new UserStore(dataDir).list()).toEqual([]);
  });

  it('refuses an unknown role', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runUser(['add', 'cy', '--role', 'owner', '--data', dataDir])).toBe(2);
    expect(new UserStore(dataDir).hasUsers()).toBe(false);
  });
});
