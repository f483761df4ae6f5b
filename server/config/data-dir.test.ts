import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserStore } from '../auth/user-store.js';
import { runArbor } from '../cli/test-support/arbor-cli.js';
import { loadConfig } from './load-config.js';

/*
 * The server and `arbor user` find the data folder by one rule, so a user added from the command
 * line is the user the server knows.
 */

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-home-'));
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-ws-'));
afterAll(() => {
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the data folder', () => {
  it.each([
    ['unset', 'ada', {}],
    ['blank', 'cy', { ARBOR_DATA_DIR: '  ' }],
  ])(
    'with ARBOR_DATA_DIR %s, `arbor user add` writes the users of the ~/.arbor the server reads',
    async (_case, name, env: Record<string, string>) => {
      const { code, stderr } = await runArbor(['user', 'add', name, '--role', 'member'], {
        HOME: home,
        ARBOR_DATA_DIR: '',
        ...env,
      });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const { dataDir } = loadConfig({ env, cwd: workspace, homeDir: home });
      expect(dataDir).toBe(path.join(home, '.arbor'));
      expect(new UserStore(dataDir).list().map((user) => user.name)).toContain(name);
    },
  );

  it('`--data ~` is the home folder for `arbor user`, as `--data-dir ~` is for the server', async () => {
    const { code } = await runArbor(['user', 'add', 'bo', '--role', 'viewer', '--data', '~'], {
      HOME: home,
    });
    expect(code).toBe(0);
    expect(
      loadConfig({ flags: { dataDir: '~' }, env: {}, cwd: workspace, homeDir: home }).dataDir,
    ).toBe(home);
    expect(new UserStore(home).list().map((user) => user.name)).toContain('bo');
  });
});
