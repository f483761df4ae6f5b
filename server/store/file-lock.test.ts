import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LEASE_MS, SessionLockedError, withFileLockSync } from './file-lock.js';
import { selfIdentity, startTimeOf } from '../runtime/process-identity.js';
import { SessionStore } from './session-store.js';
import { useTempDirs } from './test-support/temp-dir.js';
import { userMessage } from '../test-support/messages.js';

/*
 * The locks a crash leaves in a container (decision 053): the restarted server is PID 1 again, or
 * has a new host name, and must take over what its dead predecessor held, while a live holder,
 * here or in another PID namespace, keeps its lock.
 */

const tempDir = useTempDirs();
const here = path.dirname(fileURLToPath(import.meta.url));

function sessionFile(): string {
  const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
  store.appendMessage(userMessage('hello'));
  const file = store.file!;
  store.close();
  return file;
}

/** A lock file as a process `pid` of this kernel and namespace (started at `startTime`) left it. */
function leaveLock(file: string, owner: Record<string, unknown>): void {
  const me = selfIdentity();
  fs.writeFileSync(
    `${file}.lock`,
    JSON.stringify({
      hostname: os.hostname(),
      createdAt: new Date().toISOString(),
      token: 'crashed',
      bootId: me.bootId,
      pidNamespace: me.pidNamespace,
      ...owner,
    }),
  );
}

function holderPid(file: string): number {
  return (JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8')) as { pid: number }).pid;
}

function spawnHolder(lockPath: string, prefix: string[] = []): Promise<{ child: ChildProcess }> {
  const args = [
    process.execPath,
    '--import',
    'tsx',
    path.join(here, 'test-support', 'hold-lock.ts'),
  ];
  const [command, ...rest] = [...prefix, ...args, lockPath];
  const child = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) =>
      String(chunk).startsWith('held') ? resolve({ child }) : reject(new Error(String(chunk))),
    );
    child.once('error', reject);
  });
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

describe('a lock left by a crash', () => {
  it('is taken over when its pid now belongs to a live process (this one)', () => {
    const file = sessionFile();
    leaveLock(file, { pid: process.pid, startTime: '1' });
    const store = SessionStore.open(file);
    expect(holderPid(file)).toBe(process.pid);
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8')).token).not.toBe('crashed');
    store.close();
  });

  it('is taken over when it was held by PID 1 before a restart', () => {
    const file = sessionFile();
    // PID 1 is alive on this machine, but not the process that started then.
    expect(startTimeOf(1)).toBeDefined();
    leaveLock(file, { pid: 1, startTime: `${Number(startTimeOf(1)) + 12345}` });
    const store = SessionStore.open(file);
    expect(holderPid(file)).toBe(process.pid);
    store.close();
  });

  it('is taken over when the host name changed since (same kernel, holder gone)', () => {
    const file = sessionFile();
    leaveLock(file, { hostname: 'container-before-restart', pid: 1, startTime: '7' });
    SessionStore.open(file).close();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('of an older Arbor, as PID 1, is taken over once its lease has run out', () => {
    const file = sessionFile();
    fs.writeFileSync(
      `${file}.lock`,
      JSON.stringify({ pid: 1, hostname: os.hostname(), createdAt: 'x' }),
    );
    expect(() => SessionStore.open(file)).toThrow(SessionLockedError);
    const old = new Date(Date.now() - LEASE_MS - 1000);
    fs.utimesSync(`${file}.lock`, old, old);
    SessionStore.open(file).close();
  });
});

describe('a lock held by a live process', () => {
  it('keeps others out with the clear message, and is taken over once the holder is killed', async () => {
    const file = sessionFile();
    const { child } = await spawnHolder(`${file}.lock`);
    expect(() => SessionStore.open(file)).toThrow(
      new RegExp(`in use by process ${child.pid} on ${os.hostname()}`),
    );
    await kill(child);
    const store = SessionStore.open(file);
    expect(holderPid(file)).toBe(process.pid);
    store.close();
  }, 30_000);

  it('in another PID namespace keeps others out while its lease runs, even after it died', async () => {
    if (process.getuid?.() !== 0) throw new Error('this test needs root (unshare --pid)');
    const file = sessionFile();
    const { child } = await spawnHolder(`${file}.lock`, [
      'unshare',
      '--pid',
      '--fork',
      '--mount-proc',
      '--kill-child',
    ]);
    const owner = JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8'));
    expect(owner.pid).toBe(1);
    expect(owner.pidNamespace).not.toBe(selfIdentity().pidNamespace);
    expect(() => SessionStore.open(file)).toThrow(/in use by process 1 /);
    await kill(child);
    // Nothing here can see that it died: only an expired lease frees the lock.
    expect(() => SessionStore.open(file)).toThrow(SessionLockedError);
    const old = new Date(Date.now() - LEASE_MS - 1000);
    fs.utimesSync(`${file}.lock`, old, old);
    SessionStore.open(file).close();
  }, 30_000);

  it('in this process refuses a second writer on the same file', () => {
    const file = sessionFile();
    const first = SessionStore.open(file);
    expect(() => SessionStore.open(file)).toThrow(SessionLockedError);
    first.close();
  });
});

describe('short locks for shared files', () => {
  it('wait for a holder to finish, and take over one that crashed', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'users.json');
    leaveLock(target, { pid: process.pid, startTime: '1' });
    expect(withFileLockSync(target, () => 42)).toBe(42);
    expect(fs.existsSync(`${target}.lock`)).toBe(false);
    const { child } = await spawnHolder(`${target}.lock`);
    expect(() => withFileLockSync(target, () => 1, 200)).toThrow(
      new RegExp(`stays locked by process ${child.pid}`),
    );
    await kill(child);
    expect(withFileLockSync(target, () => 2)).toBe(2);
  }, 30_000);
});
