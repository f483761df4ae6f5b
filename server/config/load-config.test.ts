import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_PORT,
  isLoopbackHost,
  loadConfig,
  parseServeFlags,
} from './load-config.js';
import { workspaceIdFor } from './workspaces.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-config-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('loadConfig', () => {
  it('defaults to loopback, the fixed port, ~/.arbor and the current directory', () => {
    const cwd = path.join(dir, 'project');
    fs.mkdirSync(cwd);
    const config = loadConfig({ env: {}, cwd, homeDir: dir });
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(DEFAULT_PORT);
    expect(config.dataDir).toBe(path.join(dir, '.arbor'));
    expect(config.workspaces.map((w) => w.path)).toEqual([fs.realpathSync(cwd)]);
  });

  it('takes flags over env over the config file', () => {
    const data = path.join(dir, 'data');
    const cwd = path.join(dir, 'project');
    fs.mkdirSync(data);
    fs.mkdirSync(cwd);
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ host: '10.0.0.1', port: 1 }));
    const fromFile = loadConfig({ env: { ARBOR_DATA_DIR: data }, cwd });
    expect([fromFile.host, fromFile.port]).toEqual(['10.0.0.1', 1]);
    const fromEnv = loadConfig({ env: { ARBOR_DATA_DIR: data, HOST: '::1', PORT: '2' }, cwd });
    expect([fromEnv.host, fromEnv.port]).toEqual(['::1', 2]);
    const fromFlags = loadConfig({
      flags: { host: 'localhost', port: '3' },
      env: { ARBOR_DATA_DIR: data, HOST: '::1', PORT: '2' },
      cwd,
    });
    expect([fromFlags.host, fromFlags.port]).toEqual(['localhost', 3]);
  });

  it('reads workspaces from ARBOR_WORKSPACES separated by the path delimiter', () => {
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    const config = loadConfig({
      env: { ARBOR_WORKSPACES: [a, b].join(path.delimiter) },
      cwd: dir,
      homeDir: dir,
    });
    expect(config.workspaces.map((w) => path.basename(w.path))).toEqual(['a', 'b']);
    expect(new Set(config.workspaces.map((w) => w.id)).size).toBe(2);
  });

  it('names a bad PORT and what would be accepted', () => {
    expect(() => loadConfig({ env: { PORT: 'eighty' }, cwd: dir, homeDir: dir })).toThrow(
      /PORT must be a whole number from 0 to 65535 \(got "eighty"\)/,
    );
  });

  it('names a missing workspace directory and where it came from', () => {
    expect(() =>
      loadConfig({ flags: { workspaces: ['nope'] }, env: {}, cwd: dir, homeDir: dir }),
    ).toThrow(/Workspace "nope" \(from --workspace\) does not exist/);
  });

  it('lists every invalid key of the config file', () => {
    const data = path.join(dir, 'data');
    fs.mkdirSync(data);
    fs.writeFileSync(
      path.join(data, 'config.json'),
      JSON.stringify({ port: 'x', allowUnsandboxedBash: 'yes' }),
    );
    let message = '';
    try {
      loadConfig({ flags: { dataDir: data }, env: {}, cwd: dir });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('port:');
    expect(message).toContain('allowUnsandboxedBash:');
  });

  it('refuses a config file that is not JSON, naming it', () => {
    const file = path.join(dir, 'arbor.json');
    fs.writeFileSync(file, '{ nope');
    expect(() => loadConfig({ env: { ARBOR_CONFIG: file }, cwd: dir, homeDir: dir })).toThrow(
      new RegExp(`${file.replace(/[/\\.]/g, '\\$&')} is not valid JSON`),
    );
  });
});

describe('the resources switch', () => {
  it("turns one workspace's resources off by its entry, or all by the top-level key", () => {
    const data = path.join(dir, 'data');
    for (const name of ['a', 'b']) fs.mkdirSync(path.join(dir, name));
    fs.mkdirSync(data);
    const write = (file: object) =>
      fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify(file));
    const switches = () =>
      loadConfig({ env: { ARBOR_DATA_DIR: data }, cwd: dir }).workspaces.map((w) => [
        path.basename(w.path),
        w.resources !== false,
      ]);
    write({ workspaces: ['a', { path: 'b', resources: false }] });
    expect(switches()).toEqual([
      ['a', true],
      ['b', false],
    ]);
    write({ workspaces: ['a', { path: 'b', resources: true }], resources: false });
    expect(switches()).toEqual([
      ['a', false],
      ['b', true],
    ]);
    // The entry's switch holds when the flags name the same folder.
    write({ workspaces: [{ path: 'b', resources: false }] });
    const flagged = loadConfig({
      env: { ARBOR_DATA_DIR: data },
      cwd: dir,
      flags: { workspaces: [path.join(dir, 'b')] },
    });
    expect(flagged.workspaces[0]?.resources).toBe(false);
  });

  it('refuses a workspace entry with an unknown key, naming it', () => {
    const data = path.join(dir, 'data');
    fs.mkdirSync(data);
    fs.mkdirSync(path.join(dir, 'a'));
    fs.writeFileSync(
      path.join(data, 'config.json'),
      JSON.stringify({ workspaces: [{ path: 'a', resource: false }] }),
    );
    expect(() => loadConfig({ env: { ARBOR_DATA_DIR: data }, cwd: dir })).toThrow(/workspaces\.0/);
  });
});

describe('parseServeFlags', () => {
  it('reads repeated --workspace and --flag=value forms', () => {
    expect(
      parseServeFlags(['--workspace', 'a', '--workspace=b', '--port=9', '--data', 'd']),
    ).toEqual({ workspaces: ['a', 'b'], port: '9', dataDir: 'd' });
  });
  it('refuses an unknown flag with the usage', () => {
    expect(() => parseServeFlags(['--hots', 'x'])).toThrow(/Unknown option "--hots".*Usage/);
  });
  it('refuses a flag without its value', () => {
    expect(() => parseServeFlags(['--port'])).toThrow('--port needs a value.');
  });
});

describe('proxy and socket settings', () => {
  // The data folder apart from the workspace (the current directory), as the server requires.
  function withFile(json: object, env: Record<string, string> = {}) {
    const data = path.join(dir, 'data');
    const workspace = path.join(dir, 'ws');
    fs.mkdirSync(data, { recursive: true });
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify(json));
    return loadConfig({ env: { ARBOR_DATA_DIR: data, ...env }, cwd: workspace });
  }

  it('trusts no proxy, waits 10 s for a request head and holds 1000 connections by default', () => {
    const config = withFile({});
    expect([config.trustProxy, config.headersTimeoutMs, config.maxConnections]).toEqual([
      false,
      10_000,
      1000,
    ]);
  });

  it('takes trustProxy as a list from the file, or as text from ARBOR_TRUST_PROXY', () => {
    expect(withFile({ trustProxy: ['127.0.0.1', '10.0.0.0/8'] }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(withFile({ trustProxy: true }).trustProxy).toBe(true);
    expect(withFile({}, { ARBOR_TRUST_PROXY: 'loopback, ::1' }).trustProxy).toEqual([
      'loopback',
      '::1',
    ]);
    expect(withFile({ trustProxy: ['1.2.3.4'] }, { ARBOR_TRUST_PROXY: 'false' }).trustProxy).toBe(
      false,
    );
  });

  it('takes the log level and format from the file, the environment over it, and refuses others', () => {
    expect([withFile({}).logLevel, withFile({}).logFormat]).toEqual(['info', 'auto']);
    const fromFile = withFile({ logLevel: 'warn', logFormat: 'json' });
    expect([fromFile.logLevel, fromFile.logFormat]).toEqual(['warn', 'json']);
    const fromEnv = withFile(
      { logLevel: 'warn', logFormat: 'json' },
      { ARBOR_LOG_LEVEL: 'debug', ARBOR_LOG_FORMAT: 'pretty' },
    );
    expect([fromEnv.logLevel, fromEnv.logFormat]).toEqual(['debug', 'pretty']);
    expect(() => withFile({}, { ARBOR_LOG_LEVEL: 'loud' })).toThrow(
      'ARBOR_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud").',
    );
    expect(() => withFile({ logFormat: 'xml' })).toThrow(/logFormat/);
  });

  it('refuses a proxy that is not an address, naming it', () => {
    expect(() => withFile({ trustProxy: ['proxy.example'] })).toThrow(
      /trustProxy: "proxy.example" is not a proxy address/,
    );
    expect(() => withFile({}, { ARBOR_TRUST_PROXY: '10.0.0.0/33' })).toThrow(
      /ARBOR_TRUST_PROXY: "10.0.0.0\/33"/,
    );
    expect(() => withFile({ headersTimeoutMs: 5 })).toThrow(/headersTimeoutMs/);
    expect(() => withFile({ maxConnections: 0 })).toThrow(/maxConnections/);
  });
});

describe('workspace ids and hosts', () => {
  it('gives a stable slug-and-hash id that carries no path', () => {
    const id = workspaceIdFor('/home/me/My Project');
    expect(id).toMatch(/^my-project-[0-9a-f]{8}$/);
    expect(workspaceIdFor('/home/me/My Project')).toBe(id);
    expect(workspaceIdFor('/other/My Project')).not.toBe(id);
  });
  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.1.2.3']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});
