import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../store/session-store.js';
import { copyFixture, useTempDirs } from '../store/test-support/temp-dir.js';
import { assistantMessage, userMessage } from '../test-support/messages.js';

/* `arbor context` and `arbor tree`, run as a user runs them: the compiled CLI in a child process. */

const tempDir = useTempDirs();

beforeAll(() => {
  // Errors in unrelated files do not stop tsc from emitting; the CLI files must exist after it.
  spawnSync('npm', ['run', 'build:server'], { stdio: 'ignore' });
  expect(fs.existsSync('dist/server/cli/context-command.js')).toBe(true);
}, 180_000);

function arbor(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['bin/arbor.js', ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('arbor context', () => {
  it('prints pi’s context for the file’s leaf and for a chosen leaf', () => {
    const file = copyFixture('v3-rpc-session.jsonl', tempDir());
    const pi = SessionManager.open(file);
    for (const entry of pi.getEntries()) {
      pi.branch(entry.id);
      const result = arbor('context', file, '--leaf', entry.id);
      expect(result.status, result.stderr).toBe(0);
      const printed = JSON.parse(result.stdout);
      const expected = JSON.parse(JSON.stringify(pi.buildSessionContext()));
      expect(printed).toEqual({ leafId: entry.id, ...expected });
    }
    const atLeaf = JSON.parse(arbor('context', file).stdout);
    expect(atLeaf.leafId).toBe('fbcf45e8');
  }, 120_000);

  it('reads a locked file without taking the lock or changing it', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const u = store.appendMessage(userMessage('q'));
    store.appendMessage(assistantMessage('a'));
    store.branch(u);
    const before = fs.readFileSync(store.file!);
    const result = arbor('context', store.file!);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ leafId: u, messages: [{ role: 'user' }] });
    expect(fs.readFileSync(store.file!).equals(before)).toBe(true);
    store.close();
  });

  it('does not migrate a v1 file on disk', () => {
    const file = copyFixture('v1-large-session.jsonl', tempDir());
    const before = fs.readFileSync(file);
    const result = arbor('context', file);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).messages.length).toBeGreaterThan(10);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('fails clearly for an unknown leaf, a missing file and a file that is not a session', () => {
    const dir = tempDir();
    const file = copyFixture('v3-fork.jsonl', dir);
    expect(arbor('context', file, '--leaf', 'nope')).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/no entry "nope"/),
    });
    expect(arbor('context', path.join(dir, 'missing.jsonl')).stderr).toMatch(
      /No such session file/,
    );
    const notSession = path.join(dir, 'notes.jsonl');
    fs.writeFileSync(notSession, 'hello\n');
    expect(arbor('context', notSession).stderr).toMatch(/not a session file/);
    expect(fs.readFileSync(notSession, 'utf8')).toBe('hello\n');
    expect(arbor('context').status).toBe(2);
    // Arguments are read by node:util parseArgs: an unknown option or a second file is refused.
    const unknown = arbor('context', notSession, '--leef', 'x');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--leef'[\s\S]*Usage: arbor context/);
    expect(arbor('context', notSession, notSession).status).toBe(2);
    expect(arbor('tree', notSession, '--path').status).toBe(2);
    expect(arbor('context', notSession, '--leaf').stderr).toMatch(/--leaf/);
  });
});

describe('arbor tree', () => {
  it('prints ids, roles, previews and labels, indents branches and marks the leaf', () => {
    const file = copyFixture('v3-rpc-session.jsonl', tempDir());
    const result = arbor('tree', file);
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^session a8620d24-.* "E2E demo"/);
    expect(result.stdout).toMatch(/5902b36d assistant: Echo: .*\[checkpoint-1\]/);
    expect(result.stdout).toMatch(/├─ 64adcdbe user: please run tool now/);
    expect(result.stdout).toMatch(/└─ dec8d879 branch_summary: .*\[from-nav\]/);
    expect(lines.filter((l) => l.startsWith('*'))).toEqual([
      expect.stringMatching(/fbcf45e8 assistant/),
    ]);
    expect(lines.slice(1).filter((l) => /[0-9a-f]{8} /.test(l))).toHaveLength(20);
  });

  it('shows the persisted leaf of a file Arbor wrote, and no leaf markers', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const u = store.appendMessage(userMessage('question'));
    store.appendMessage(assistantMessage('answer'));
    store.branch(u);
    store.close();
    const result = arbor('tree', store.file!);
    expect(result.stdout).toMatch(new RegExp(`^\\* +${u} user: question$`, 'm'));
    expect(result.stdout).not.toMatch(/arbor\.leaf/);
  });
});

describe('arbor --help', () => {
  it('prints the usage and succeeds, for Arbor and after any command', () => {
    for (const args of [['--help'], ['-h'], ['help'], ['serve', '--help'], ['run', '--help']]) {
      const result = arbor(...args);
      expect(result.status, args.join(' ')).toBe(0);
      expect(result.stdout).toContain('Usage: arbor <command> [options]');
      expect(result.stdout).toContain('--session-dir');
      expect(result.stderr).toBe('');
    }
  });
});
