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
    expect(await store.verify(token)).toEqual({ name: 'ada', role: 'member' });
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
    expect(server.get('bo')).toEqual({ name: 'bo', role: 'viewer' });
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
  it('keeps logins across a restart and ends them on logout', () => {
    const secret = new LoginSessions(dataDir).create('ada');
    const restarted = new LoginSessions(dataDir);
    expect(restarted.lookup(secret)).toBe('ada');
    expect(fs.readFileSync(path.join(dataDir, 'logins.json'), 'utf8')).not.toContain(secret);
    restarted.end(secret);
    expect(new LoginSessions(dataDir).lookup(secret)).toBeUndefined();
    expect(restarted.lookup('not-a-login')).toBeUndefined();
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
    expect(await new UserStore(dataDir).verify(token as string)).toEqual({
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
