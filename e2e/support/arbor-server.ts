import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/*
 * Runs the real server as a user would: `node bin/arbor.js serve` from the compiled build, on a
 * free port, with a temporary data directory and workspace. Team users are added with the real
 * `arbor user add` command.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'arbor.js');

export interface ArborServer {
  url: string;
  dataDir: string;
  workspace: string;
  /** Output of the server so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function makeTempDirs(): { dataDir: string; workspace: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-e2e-'));
  const dataDir = path.join(base, 'data');
  const workspace = path.join(base, 'workspace');
  fs.mkdirSync(dataDir);
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# A workspace for the tests\n');
  return { dataDir, workspace };
}

/** Adds a team user with the CLI and returns the login token it printed. */
export function addUser(
  dataDir: string,
  name: string,
  role: 'admin' | 'member' | 'viewer',
): string {
  const result = spawnSync('node', [BIN, 'user', 'add', name, '--role', role, '--data', dataDir], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`arbor user add failed: ${result.stderr}`);
  const token = /^\s{2}(\S+)\s*$/m.exec(result.stdout)?.[1];
  if (!token) throw new Error(`no token in: ${result.stdout}`);
  return token;
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`arbor serve exited: ${log()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`arbor serve did not answer in time: ${log()}`);
}

/**
 * `port`: the one a stopped server used, to start it again where its pages look for it. `root`:
 * the checkout whose build runs (another worktree's, for a benchmark of an older commit).
 */
export async function startArbor(
  dirs: { dataDir: string; workspace: string } = makeTempDirs(),
  env: Record<string, string> = {},
  port?: number,
  root = ROOT,
): Promise<ArborServer> {
  port ??= await freePort();
  let output = '';
  const child = spawn(
    'node',
    [
      path.join(root, 'bin', 'arbor.js'),
      'serve',
      '--port',
      String(port),
      '--data',
      dirs.dataDir,
      '--workspace',
      dirs.workspace,
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, () => output);
  return {
    url,
    ...dirs,
    log: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
