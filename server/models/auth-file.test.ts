import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readModelsWithPi16 } from '../store/test-support/pi16-oracle.js';
import { AuthFile, literalConfigValue } from './auth-file.js';
import { ModelCatalog } from './model-catalog.js';
import { writeLocalProvider } from './test-support/local-provider.js';

/*
 * pi's auth.json as Arbor reads and writes it: pi's format and lock, keys entered by a person kept
 * literal (never a variable, never a command), and pi 1.6 itself reading back what Arbor saved.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-auth-'));
  dirs.push(dir);
  return dir;
}

describe('auth.json', () => {
  it("saves a key in pi's format, made private, and reads it back literally", async () => {
    const dir = tempDir();
    const auth = new AuthFile(path.join(dir, 'auth.json'));
    const marker = path.join(dir, 'ran');
    const hostile = `!touch ${marker} $HOME \${PATH} $$`;
    await auth.setKey('local', hostile);
    expect(fs.statSync(auth.file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(auth.file, 'utf8'))).toEqual({
      local: { type: 'api_key', key: literalConfigValue(hostile) },
    });
    expect(auth.keyFor('local', { HOME: '/root', PATH: '/bin' })).toEqual({ key: hostile });
    expect(fs.existsSync(marker)).toBe(false);
    expect(await auth.removeKey('local')).toBe(true);
    expect(await auth.removeKey('local')).toBe(false);
    expect(auth.keyFor('local', {})).toBeUndefined();
  });

  it('keeps every key of writers that change it at once, and what pi wrote by hand', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'auth.json');
    const oauth = { type: 'oauth', access: 'a', refresh: 'r', expires: 1, extra: true };
    fs.writeFileSync(file, JSON.stringify({ 'openai-codex': oauth }), { mode: 0o640 });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => new AuthFile(file).setKey(`p${i}`, `key-${i}`)),
    );
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(saved).sort()).toEqual(
      ['openai-codex', ...Array.from({ length: 12 }, (_, i) => `p${i}`)].sort(),
    );
    expect(saved['openai-codex']).toEqual(oauth);
    // An admin's own mode on an existing file stays.
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
  });

  it('reads a key written by hand as pi does, and says why one cannot be used', () => {
    const dir = tempDir();
    const file = path.join(dir, 'auth.json');
    const auth = new AuthFile(file);
    fs.writeFileSync(
      file,
      JSON.stringify({
        env: { type: 'api_key', key: '$TEAM_KEY' },
        cmd: { type: 'api_key', key: `!touch ${path.join(dir, 'ran')}` },
      }),
    );
    expect(auth.keyFor('env', { TEAM_KEY: 'sk-team' })).toEqual({ key: 'sk-team' });
    expect(auth.keyFor('env', {})).toEqual({
      reason: 'No API key: the key in auth.json names an unset variable',
    });
    expect(auth.keyFor('cmd', {})).toEqual({
      reason: 'No API key: the key in auth.json is a command, which Arbor does not run',
    });
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(false);
    fs.writeFileSync(file, '{"local": {"type": "api_key", "key": 42}}');
    expect(auth.keyFor('local', {})).toEqual({
      reason: 'auth.json is not valid: the credential of provider "local"',
    });
  });

  it('gives a model the key of its provider before models.json and the environment, as pi 1.6 does', async () => {
    const dir = tempDir();
    writeLocalProvider(dir);
    const catalog = () => ModelCatalog.load({ dataDir: dir, env: {} });
    expect(catalog().missingKeyReason(catalog().lookup('local-model')!)).toMatch(/^No API key/);
    // Typed into the page: were it stored as written, pi would run it as a command.
    const marker = path.join(dir, 'ran');
    const key = `!touch ${marker} $HOME $$ $!`;
    await new AuthFile(path.join(dir, 'auth.json')).setKey('local', key);
    expect(catalog().apiKeyFor(catalog().lookup('local-model')!)).toBe(key);
    const pi = await readModelsWithPi16(dir, ['local'], { HOME: '/nowhere' });
    expect(pi.models.find((model) => model.id === 'local-model')?.apiKey).toBe(key);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
