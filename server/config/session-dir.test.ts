import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runArbor } from '../cli/test-support/arbor-cli.js';
import { ConfigError, loadConfig, parseServeFlags, type ServeFlags } from './load-config.js';

/*
 * The relocated session folder (pi's `sessionDir`, decision 071): where it is taken from, in which
 * order, and the folders it must never be.
 */

let dir: string;
let workspace: string;
let data: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-session-dir-')));
  workspace = path.join(dir, 'ws');
  data = path.join(dir, 'data');
  fs.mkdirSync(workspace);
  fs.mkdirSync(data);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function load(flags: ServeFlags = {}, env: Record<string, string> = {}) {
  return loadConfig({
    flags: { dataDir: data, workspaces: [workspace], ...flags },
    env,
    cwd: dir,
    homeDir: dir,
  });
}

function piSettings(value: unknown) {
  fs.writeFileSync(path.join(data, 'settings.json'), JSON.stringify({ sessionDir: value }));
}

describe('the session folder', () => {
  it("is pi's layout under the data folder when nothing names one", () => {
    const config = load();
    expect(config.sessionDir).toBeUndefined();
    expect(config.sessionDirSource).toBe('the default');
  });

  it("follows pi's settings in the data folder, with ~ expanded, as pi does", () => {
    piSettings('~/pi-sessions');
    const config = load();
    expect(config.sessionDir).toBe(path.join(dir, 'pi-sessions'));
    expect(config.sessionDirSource).toBe(`sessionDir in ${path.join(data, 'settings.json')}`);
    piSettings('');
    expect(load().sessionDir).toBeUndefined();
  });

  it("takes Arbor's own settings first (flag, ARBOR_SESSION_DIR, config file), then pi's (PI_CODING_AGENT_SESSION_DIR, settings.json)", () => {
    piSettings(path.join(dir, 'from-settings'));
    const config = path.join(data, 'config.json');
    const withFile = () =>
      fs.writeFileSync(config, JSON.stringify({ sessionDir: path.join(dir, 'from-config') }));
    const piEnv = { PI_CODING_AGENT_SESSION_DIR: path.join(dir, 'from-pi-env') };
    const arborEnv = { ...piEnv, ARBOR_SESSION_DIR: path.join(dir, 'from-arbor-env') };

    expect(load().sessionDir).toBe(path.join(dir, 'from-settings'));
    expect(load({}, piEnv).sessionDir).toBe(path.join(dir, 'from-pi-env'));
    withFile();
    expect(load({}, piEnv).sessionDir).toBe(path.join(dir, 'from-config'));
    expect(load({}, arborEnv)).toMatchObject({
      sessionDir: path.join(dir, 'from-arbor-env'),
      sessionDirSource: 'ARBOR_SESSION_DIR',
    });
    const flagged = load(parseServeFlags(['--session-dir', 'relative/flag']), arborEnv);
    // A relative path given to Arbor is taken from where it was started, as --data is.
    expect(flagged).toMatchObject({
      sessionDir: path.join(dir, 'relative/flag'),
      sessionDirSource: '--session-dir',
    });
  });

  it("refuses a relative sessionDir in pi's settings, which pi puts inside each working directory", () => {
    piSettings('sessions');
    expect(() => load()).toThrow(ConfigError);
    expect(() => load()).toThrow(/sessionDir "sessions" in .*settings\.json is a relative path/);
  });

  it("refuses pi's settings it cannot read, and a sessionDir that is no path or no folder", () => {
    fs.writeFileSync(path.join(data, 'settings.json'), '{ not json');
    expect(() => load()).toThrow(/Cannot read pi's settings .*settings\.json/);
    piSettings(42);
    expect(() => load()).toThrow(/sessionDir in .* must be a folder's path/);
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    expect(() => load({ sessionDir: file })).toThrow(
      `The session folder ${file} (from --session-dir) is not a folder.`,
    );
  });

  it('is refused inside a workspace, as the workspace, holding one, or through a link', () => {
    expect(() => load({ sessionDir: path.join(workspace, '.sessions') })).toThrow(
      `The session folder ${path.join(workspace, '.sessions')} (from --session-dir) is inside the workspace ${workspace}.`,
    );
    expect(() => load({ sessionDir: workspace })).toThrow(/is the workspace/);
    expect(() => load({ sessionDir: dir })).toThrow(`holds the workspace ${workspace}`);
    const link = path.join(dir, 'link');
    fs.symlinkSync(workspace, link);
    piSettings(path.join(link, 'sessions'));
    expect(() => load()).toThrow(
      /really .*ws\/sessions\) \(from sessionDir in .*settings\.json\) is inside the workspace/,
    );
    expect(load({ sessionDir: path.join(dir, 'apart') }).sessionDir).toBe(path.join(dir, 'apart'));
  });

  it("does not follow a workspace's own .pi/settings.json, and warns naming the file", () => {
    const own = path.join(workspace, '.pi', 'settings.json');
    fs.mkdirSync(path.dirname(own));
    fs.writeFileSync(own, JSON.stringify({ sessionDir: data }));
    const config = load();
    expect(config.sessionDir).toBeUndefined();
    expect(config.warnings).toEqual([
      expect.stringContaining(`${own} sets sessionDir "${data}"; Arbor does not follow`),
    ]);
    fs.writeFileSync(own, JSON.stringify({ theme: 'dark' }));
    expect(load().warnings).toEqual([]);
  });

  it('is where the real `arbor run` writes its new session', async () => {
    const folder = path.join(dir, 'sessions');
    const run = await runArbor(
      ['run', '--data', data, '--workspace', workspace, '--session-dir', folder, 'hello'],
      {},
      30_000,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [name, ...more] = fs.readdirSync(folder);
    expect(more).toEqual([]);
    const header = JSON.parse(fs.readFileSync(path.join(folder, name!), 'utf8').split('\n')[0]!);
    expect(header).toMatchObject({ type: 'session', cwd: workspace });
    expect(fs.existsSync(path.join(data, 'sessions'))).toBe(false);
  }, 60_000);

  it('stops the real `arbor serve` and `arbor run` with exit code 2 when it lies in a workspace', async () => {
    const inside = path.join(workspace, 'sessions');
    const serve = await runArbor([
      'serve',
      '--port',
      '0',
      '--data',
      data,
      '--workspace',
      workspace,
      '--session-dir',
      inside,
    ]);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain(
      `arbor serve: The session folder ${inside} (from --session-dir)`,
    );
    const run = await runArbor(['run', '--data', data, '--workspace', workspace, 'hello'], {
      ARBOR_SESSION_DIR: inside,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `arbor run: The session folder ${inside} (from ARBOR_SESSION_DIR)`,
    );
    expect(fs.existsSync(inside)).toBe(false);
  }, 60_000);
});
