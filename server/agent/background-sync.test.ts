import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../store/session-store.js';
import { BackgroundSync } from './background-sync.js';

/*
 * The fsync that makes a session's appends durable off the event loop, over real session files.
 */

let tmp: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-sync-'));
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function userText(text: string) {
  return { role: 'user' as const, content: [{ type: 'text' as const, text }], timestamp: 1 };
}

describe('background sync', () => {
  it('answers every request, however many come while an fsync runs, with the file intact', async () => {
    const store = SessionStore.create({ cwd: tmp, sessionDir: path.join(tmp, 'sessions') });
    const sync = new BackgroundSync(store);
    const requests: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      store.appendMessage(userText(`message ${i}`));
      requests.push(sync.request());
      sync.requestQuietly();
    }
    await Promise.all(requests);
    await sync.flush();
    await sync.close();
    const lines = fs.readFileSync(store.file!, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(51);
    store.close();
    expect(SessionStore.openReadOnly(store.file!).buildSessionContext().messages).toHaveLength(50);
  });

  it('keeps working when the file is moved away while the session is open', async () => {
    const store = SessionStore.create({ cwd: tmp, sessionDir: path.join(tmp, 'sessions') });
    const sync = new BackgroundSync(store);
    store.appendMessage(userText('before'));
    await sync.flush();
    const moved = path.join(tmp, 'moved.jsonl');
    fs.renameSync(store.file!, moved);
    store.appendMessage(userText('after'));
    await expect(sync.flush()).resolves.toBeUndefined();
    await sync.close();
    store.close();
    expect(fs.readFileSync(moved, 'utf8')).toContain('"after"');
  });

  it('does nothing for a session without a file, or once closed', async () => {
    const memory = SessionStore.inMemory(tmp);
    const sync = new BackgroundSync(memory);
    memory.appendMessage(userText('kept in memory'));
    await expect(sync.flush()).resolves.toBeUndefined();

    const store = SessionStore.create({ cwd: tmp, sessionDir: path.join(tmp, 'sessions') });
    const closing = new BackgroundSync(store);
    await closing.close();
    store.close();
    fs.rmSync(path.join(tmp, 'sessions'), { recursive: true, force: true });
    await expect(closing.flush()).resolves.toBeUndefined();
  });
});
