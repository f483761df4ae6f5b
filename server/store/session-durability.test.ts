import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { SessionStore } from './session-store.js';
import { SessionLockedError } from './file-lock.js';
import { PREVIEW_LENGTH } from './tree-node.js';
import { useTempDirs } from './test-support/temp-dir.js';
import { assistantMessage, userMessage } from '../test-support/messages.js';
import { prng } from '../../shared/prng.js';

const tempDir = useTempDirs();
const here = path.dirname(fileURLToPath(import.meta.url));

function sessionWith(count: number): { file: string; ids: string[] } {
  const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(store.appendMessage(i % 2 ? assistantMessage(`a${i}`) : userMessage(`é ü ${i} 😀`)));
  }
  const file = store.file!;
  store.close();
  return { file, ids };
}

describe('the writer lock', () => {
  it('refuses a second writer on the same file with a clear error', () => {
    const { file } = sessionWith(1);
    const first = SessionStore.open(file);
    expect(() => SessionStore.open(file)).toThrow(SessionLockedError);
    expect(() => SessionStore.open(file)).toThrow(/in use by process \d+/);
    first.close();
    const second = SessionStore.open(file);
    second.close();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('takes over a lock left by a dead process', () => {
    const { file } = sessionWith(1);
    const dead = spawn(process.execPath, ['-e', '0']);
    return new Promise<void>((resolve) => {
      dead.on('exit', () => {
        fs.writeFileSync(
          `${file}.lock`,
          JSON.stringify({ pid: dead.pid, hostname: os.hostname(), createdAt: 'x' }),
        );
        const store = SessionStore.open(file);
        expect(JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8')).pid).toBe(process.pid);
        store.close();
        resolve();
      });
    });
  });

  it('a live writer in another process keeps others out; once it is killed, its lock is taken over', async () => {
    const { file } = sessionWith(1);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'test-support', 'append-loop.ts'), file],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    expect(() => SessionStore.open(file)).toThrow(new RegExp(`in use by process ${child.pid}`));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
    const store = SessionStore.open(file);
    expect(store.getTree().length).toBeGreaterThan(1);
    store.close();
  }, 60_000);

  it('treats an unreadable lock as stale only once it is old', () => {
    const { file } = sessionWith(1);
    fs.writeFileSync(`${file}.lock`, '{"pid":');
    expect(() => SessionStore.open(file)).toThrow(/owner cannot be determined/);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.lock`, old, old);
    SessionStore.open(file).close();
  });

  it('leaves a lock held by a live process on another host alone', () => {
    const { file } = sessionWith(1);
    fs.writeFileSync(
      `${file}.lock`,
      JSON.stringify({ pid: 1, hostname: 'elsewhere', createdAt: 'x' }),
    );
    expect(() => SessionStore.open(file)).toThrow(/on elsewhere/);
    expect(SessionStore.openReadOnly(file).getTree()).toHaveLength(1);
  });
});

describe('torn and damaged files', () => {
  it('a file cut at every byte of its last line opens with every earlier entry', () => {
    const { file, ids } = sessionWith(4);
    const full = fs.readFileSync(file);
    const lastStart = full.lastIndexOf(0x0a, full.length - 2) + 1;
    const dir = tempDir();
    for (let cut = lastStart; cut < full.length; cut++) {
      const copy = path.join(dir, `cut-${cut}.jsonl`);
      fs.writeFileSync(copy, full.subarray(0, cut));
      const store = SessionStore.open(copy);
      const complete = cut === full.length - 1; // only the newline is missing
      expect(store.getTree().map((n) => n.id)).toEqual(complete ? ids : ids.slice(0, 3));
      expect(store.openReport.tornTailBytes).toBe(complete ? 0 : cut - lastStart);
      store.appendMessage(userMessage('after repair'));
      store.close();
      const reopened = SessionStore.open(copy);
      expect(reopened.openReport.badLines).toEqual([]);
      expect(reopened.getTree()).toHaveLength((complete ? 4 : 3) + 1);
      reopened.close();
      expect(SessionManager.open(copy).getEntries()).toHaveLength((complete ? 4 : 3) + 1);
    }
  });

  it('never rewrites a file because a middle line is not JSON', () => {
    const { file, ids } = sessionWith(3);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.splice(2, 0, 'this is { not json');
    const content = lines.join('\n');
    fs.writeFileSync(file, content);
    const store = SessionStore.open(file);
    expect(store.openReport.badLines).toEqual([3]);
    expect(store.getTree().map((n) => n.id)).toEqual(ids);
    store.close();
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
  });

  it('reports a message line whose body turns out invalid when it is read, and keeps the file', () => {
    const { file, ids } = sessionWith(2);
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    // Right envelope and key order, but the message's timestamp is text: only a full read tells.
    const broken = `{"type":"message","id":"bad00001","parentId":"${ids[1]}","timestamp":"${new Date().toISOString()}","message":{"role":"user","content":"a timestamp that is text, which the schema refuses","timestamp":"yesterday"}}`;
    const after = JSON.stringify({
      type: 'message',
      id: 'after001',
      parentId: 'bad00001',
      timestamp: new Date().toISOString(),
      message: userMessage('after'),
    });
    const content = `${[...lines, broken, after].join('\n')}\n`;
    fs.writeFileSync(file, content);
    const store = SessionStore.open(file);
    expect(store.getNode('bad00001')?.role).toBe('user');
    // It is on the active path, so opening (which reads the active context) already found it.
    expect(store.openReport.badLines).toEqual([4]);
    const roles = store.buildSessionContext().messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'user']);
    expect(store.getEntry('bad00001')).toBeUndefined();
    store.close();
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
  });

  it('tolerates duplicate headers and orphans, and reports them', () => {
    const { file, ids } = sessionWith(2);
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    const orphan = JSON.stringify({
      type: 'message',
      id: 'orphan01',
      parentId: 'missing1',
      timestamp: new Date().toISOString(),
      message: userMessage('lost'),
    });
    fs.writeFileSync(file, `${[...lines, lines[0], orphan].join('\n')}\n`);
    const store = SessionStore.open(file);
    expect(store.openReport.duplicateHeaders).toBe(1);
    expect(store.openReport.orphans).toEqual(['orphan01']);
    expect(store.getNode('orphan01')?.parentId).toBeNull();
    expect(store.getChildren(null).map((n) => n.id)).toEqual([ids[0], 'orphan01']);
    store.close();
  });

  it('refuses a file whose first line is not a session header, and leaves it untouched', () => {
    const dir = tempDir();
    const cases = {
      'text.jsonl': 'hello world\nsecond line\n',
      'entry-first.jsonl':
        '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{}}\n',
      'no-id.jsonl': '{"type":"session","timestamp":"t"}\n',
      'torn-header.jsonl': '{"type":"session","version":3,"id":"x"',
      'binary.jsonl': '\u0000\u0001\u0002',
    };
    for (const [name, content] of Object.entries(cases)) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, content);
      expect(() => SessionStore.open(file), name).toThrow(/is not a session file/);
      expect(fs.readFileSync(file, 'utf8'), name).toBe(content);
      expect(fs.existsSync(`${file}.lock`), name).toBe(false);
    }
  });

  it('opens a file with a huge line and reads that body on demand', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const huge = 'y'.repeat(20_000_000);
    const big = store.appendMessage(userMessage(huge));
    store.appendMessage(assistantMessage('ok'));
    const file = store.file!;
    store.close();
    const reopened = SessionStore.open(file);
    expect(reopened.getNode(big)?.preview.length).toBe(PREVIEW_LENGTH);
    const entry = reopened.getEntry(big);
    expect(entry?.type === 'message' && entry.message.role === 'user').toBe(true);
    expect(JSON.stringify(entry).length).toBeGreaterThan(20_000_000);
    reopened.close();
  });
});

describe('crash safety', () => {
  it('no acknowledged entry is lost when the writer is killed at random moments', async () => {
    const dir = tempDir();
    const random = prng(7);
    const acknowledged: string[] = [];
    let file: string | undefined;
    for (let round = 0; round < 5; round++) {
      const args = file ? [file] : ['--create', dir];
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(here, 'test-support', 'append-loop.ts'), ...args],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let buffered = '';
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const started = new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          resolve();
        });
      });
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      await Promise.race([started, exited]);
      expect(stderr).toBe('');
      await new Promise((resolve) => setTimeout(resolve, 50 + random() * 400));
      child.kill('SIGKILL');
      await exited;
      // Only whole lines were acknowledged; a cut-off last line was not.
      const complete = buffered.slice(0, buffered.lastIndexOf('\n') + 1);
      for (const line of complete.split('\n')) {
        if (line.startsWith('file ')) file = line.slice(5);
        else if (line) acknowledged.push(line);
      }
      expect(file).toBeDefined();
      const store = SessionStore.open(file!);
      const present = new Set(store.getTree().map((n) => n.id));
      const missing = acknowledged.filter((id) => !present.has(id));
      expect(missing, `round ${round}`).toEqual([]);
      expect(store.openReport.badLines).toEqual([]);
      store.close();
      const pi = SessionManager.open(file!);
      const piIds = new Set(pi.getEntries().map((e) => e.id));
      expect(acknowledged.filter((id) => !piIds.has(id))).toEqual([]);
    }
    expect(acknowledged.length).toBeGreaterThan(0);
  }, 120_000);
});
