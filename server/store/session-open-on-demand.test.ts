import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionChangedError } from './open-session-file.js';
import { SessionStore } from './session-store.js';
import { copyFixture, useTempDirs } from './test-support/temp-dir.js';
import { assistantMessage, userMessage } from '../test-support/messages.js';

/*
 * A session opened `writableOnDemand` (as the server opens every session) is read without a lock
 * and without repairs; its first write takes the lock and makes the repairs (decision 053).
 */

const tempDir = useTempDirs();

function sessionWith(count: number): string {
  const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
  for (let i = 0; i < count; i++) {
    store.appendMessage(i % 2 ? assistantMessage(`a${i}`) : userMessage(`u${i}`));
  }
  const file = store.file!;
  store.close();
  return file;
}

describe('a session opened to be written on demand', () => {
  it('takes no lock and cuts no torn tail until its first write, then does both', () => {
    const file = sessionWith(2);
    fs.appendFileSync(file, '{"type":"message","id":"torn');
    const before = fs.readFileSync(file);
    const store = SessionStore.open(file, { writableOnDemand: true });
    expect(store.getTree()).toHaveLength(2);
    expect(store.access.readOnly).toBe(false);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);

    store.appendMessage(userMessage('first write'));
    expect(fs.existsSync(`${file}.lock`)).toBe(true);
    store.close();
    const reopened = SessionStore.openReadOnly(file);
    expect(reopened.openReport.badLines).toEqual([]);
    expect(reopened.getTree()).toHaveLength(3);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('migrates an old pi file only at its first write, where the migrated offsets hold', () => {
    const file = copyFixture('v1-large-session.jsonl', tempDir());
    const before = fs.readFileSync(file);
    const store = SessionStore.open(file, { writableOnDemand: true });
    const leaf = store.getLeafId();
    const firstBody = JSON.stringify(store.getEntry(store.getTree()[0]!.id));
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    store.appendMessage(userMessage('after migration'));
    expect(fs.readFileSync(file, 'utf8').split('\n', 1)[0]).toContain('"version":3');
    // Bodies now come from the migrated file at the offsets the skeleton was built with.
    expect(JSON.stringify(store.getEntry(store.getTree()[0]!.id))).toBe(firstBody);
    expect(store.getNode(store.getLeafId()!)?.parentId).toBe(leaf);
    store.close();
  });

  it('refuses its first write when another program wrote the file since, and writes nothing', () => {
    const file = sessionWith(2);
    const viewer = SessionStore.open(file, { writableOnDemand: true });
    // Nothing holds a lock while the session is only read: another writer may append.
    const other = SessionStore.open(file);
    other.appendMessage(userMessage('from the terminal'));
    other.close();
    const after = fs.readFileSync(file);
    expect(() => viewer.appendMessage(userMessage('stale'))).toThrow(SessionChangedError);
    expect(viewer.access.stale).toBe(true);
    expect(fs.readFileSync(file).equals(after)).toBe(true);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    viewer.close();
  });
});
