import fs from 'node:fs';
import path from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { SessionStore } from './session-store.js';
import { expectSameContextsAsPi } from './test-support/pi-compare.js';
import { copyFixture, PI_FIXTURES, useTempDirs } from './test-support/temp-dir.js';
import { randomSession } from '../test-support/random-session.js';
import { assistantMessage, userMessage } from '../test-support/messages.js';

/*
 * Interoperability with pi 0.73.1's own library: same context at every leaf, for pi's files and
 * for ours, and pi reads what we write.
 */

const tempDir = useTempDirs();

describe('pi-written files', () => {
  const fixtures = fs.readdirSync(PI_FIXTURES).filter((name) => /^v\d.*\.jsonl$/.test(name));

  it.each(fixtures)('%s: our context equals pi’s at every entry', (name) => {
    const dir = tempDir();
    const file = copyFixture(name, dir);
    // Migrate (v1) with our store first; pi must then agree on the migrated file.
    const store = SessionStore.open(file);
    const leaf = store.getLeafId();
    store.close();
    expect(expectSameContextsAsPi(file)).toBeGreaterThan(0);
    expect(SessionManager.open(file).getLeafId()).toBe(leaf);
  });

  it('the skeleton of a pi fixture has every entry, its labels and its name', () => {
    const file = copyFixture('v3-rpc-session.jsonl', tempDir());
    const store = SessionStore.open(file);
    const pi = SessionManager.open(file);
    expect(store.getTree().map((n) => n.id)).toEqual(pi.getEntries().map((e) => e.id));
    for (const entry of pi.getEntries()) {
      expect(store.getLabel(entry.id)).toBe(pi.getLabel(entry.id));
      expect(store.getEntry(entry.id)).toEqual(entry);
    }
    expect(store.getSessionName()).toBe(pi.getSessionName());
    expect(store.getSessionName()).toBe('E2E demo');
    store.close();
  });
});

describe('files we write', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'random session %i: pi opens it and agrees on the context at every entry',
    (seed) => {
      const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
      randomSession(store, seed, 120);
      const file = store.file!;
      const ourLeafContext = store.buildSessionContext();
      store.close();
      const pi = SessionManager.open(file);
      expect(pi.getHeader()?.id).toBeDefined();
      expect(JSON.parse(JSON.stringify(pi.buildSessionContext()))).toEqual(
        JSON.parse(JSON.stringify(ourLeafContext)),
      );
      expect(expectSameContextsAsPi(file)).toBeGreaterThan(100);
    },
  );

  it('in-memory and file stores give the same contexts for the same operations', () => {
    const inMemory = SessionStore.inMemory('/w');
    const onDisk = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    randomSession(inMemory, 42, 80);
    randomSession(onDisk, 42, 80);
    const memoryTree = inMemory.getTree();
    const diskTree = onDisk.getTree();
    // Ids are random, so label previews (which name their target) are left out.
    const shape = (nodes: typeof memoryTree) =>
      nodes.map((n) => [n.type, n.role, n.type === 'label' ? '' : n.preview]);
    expect(shape(diskTree)).toEqual(shape(memoryTree));
    const strip = (c: ReturnType<SessionStore['buildSessionContext']>) =>
      c.messages.map((m) => m.role);
    expect(strip(onDisk.buildSessionContext())).toEqual(strip(inMemory.buildSessionContext()));
    onDisk.close();
  });
});

describe('leaf persistence (decision 001)', () => {
  it('after a leaf move and a reopen, our store and pi both give the context at the moved leaf', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const u1 = store.appendMessage(userMessage('first'));
    const a1 = store.appendMessage(assistantMessage('first answer'));
    store.appendMessage(userMessage('second'));
    store.appendMessage(assistantMessage('second answer'));
    store.branch(a1);
    const expected = store.buildSessionContext();
    const file = store.file!;
    store.close();

    const reopened = SessionStore.open(file);
    expect(reopened.getLeafId()).toBe(a1);
    expect(reopened.buildSessionContext()).toEqual(expected);
    expect(reopened.getTree().some((n) => n.type === 'custom')).toBe(false);
    expect(reopened.getChildren(a1).map((n) => n.role)).toEqual(['user']);
    reopened.close();

    const pi = SessionManager.open(file);
    expect(JSON.parse(JSON.stringify(pi.buildSessionContext()))).toEqual(
      JSON.parse(JSON.stringify(expected)),
    );
    expect(expected.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(u1).toBeDefined();
  });

  it('a reset to the root survives a reopen as an empty context, for pi too', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    store.appendMessage(userMessage('first'));
    store.resetLeaf();
    const file = store.file!;
    store.close();
    const reopened = SessionStore.open(file);
    expect(reopened.getLeafId()).toBeNull();
    expect(reopened.getTree()).toHaveLength(1);
    reopened.close();
    expect(SessionManager.open(file).buildSessionContext().messages).toEqual([]);
  });

  it('an entry pi appends under our marker hangs off the marker’s parent in our tree', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const u1 = store.appendMessage(userMessage('first'));
    store.appendMessage(assistantMessage('answer'));
    store.branch(u1);
    const file = store.file!;
    store.close();
    const pi = SessionManager.open(file);
    const piId = pi.appendMessage(
      assistantMessage('from pi') as Parameters<typeof pi.appendMessage>[0],
    );
    const reopened = SessionStore.open(file);
    expect(reopened.getLeafId()).toBe(piId);
    expect(reopened.getNode(piId)?.parentId).toBe(u1);
    expect(reopened.getChildren(u1).map((n) => n.id)).toContain(piId);
    expect(reopened.buildSessionContext().messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
    ]);
    expect(reopened.getBranch().map((e) => e.type)).toEqual(['message', 'message']);
    reopened.close();
    expect(path.isAbsolute(file)).toBe(true);
  });

  it('a move to the current leaf writes nothing', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const u = store.appendMessage(userMessage('q'));
    const size = fs.statSync(store.file!).size;
    store.branch(u);
    expect(fs.statSync(store.file!).size).toBe(size);
    store.close();
  });
});
